/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: every line must be a `# HELP`, a
 * `# TYPE` or a sample of the family last typed; histograms must have, per label set, ascending `le` buckets whose
 * counts never fall, ending with `+Inf` equal to `_count`, and a `_sum`. Anything else throws, naming the line.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  type: string;
  help: string;
  readonly samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) throw new Error(`not a number in: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (match === null) throw new Error(`malformed labels in: ${line}`);
    if (match[1]! in labels) throw new Error(`label ${match[1]} twice in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the text must end with a line feed');
  const families = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment !== null) {
      const [, kind, name, rest] = comment;
      let family = families.get(name!);
      if (family === undefined) {
        family = { name: name!, type: 'untyped', help: '', samples: [] };
        families.set(name!, family);
      } else if (family.samples.length > 0) throw new Error(`${kind} after the samples of ${name}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest!)) throw new Error(`unknown type in: ${line}`);
        family.type = rest!;
      } else family.help = rest!;
      current = family;
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (sample === null) throw new Error(`not a sample, HELP or TYPE line: ${JSON.stringify(line)}`);
    const [, name, labels, value] = sample;
    const family = current;
    const suffixes = family?.type === 'histogram' ? ['_bucket', '_sum', '_count'] : [''];
    if (family === undefined || !suffixes.some((s) => name === `${family.name}${s}`))
      throw new Error(`sample outside its family: ${line}`);
    family.samples.push({ name: name!, labels: parseLabels(labels ?? '', line), value: parseValue(value!, line) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(rest);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`a bucket without le in ${family.name}`);
      entry.buckets.push([parseValue(le, le), s.value]);
    } else if (s.name.endsWith('_sum')) entry.sum = s.value;
    else entry.count = s.value;
  }
  for (const [key, entry] of series) {
    const { buckets } = entry;
    if (buckets.length === 0 || buckets.at(-1)![0] !== Number.POSITIVE_INFINITY)
      throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i]![0] > buckets[i - 1]![0])) throw new Error(`${family.name}${key}: le not ascending`);
      if (buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${family.name}${key}: bucket counts fall`);
    }
    if (entry.count !== buckets.at(-1)![1]) throw new Error(`${family.name}${key}: _count is not the +Inf bucket`);
    if (entry.sum === undefined) throw new Error(`${family.name}${key}: no _sum`);
  }
}
