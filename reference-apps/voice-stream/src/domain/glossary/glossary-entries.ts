import { GLOSSARY_LIMITS, type GlossaryEntry } from './glossary';

export type EntriesFormat = 'tsv' | 'csv';

/** Entries as parsed, or what is wrong with them (DeepL's `{message, detail}`). */
export type ParsedEntries = { readonly entries: GlossaryEntry[] } | { readonly problem: string };

// C0 and C1 control characters (tab and newline included) and Unicode's own line and paragraph separators.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
const EDGE_SPACE = /^\s|\s$/u;

/**
 * Parses a dictionary's entries as DeepL defines them: one entry per line (`\n` or `\r\n`; empty lines skipped),
 * source then target, separated by a tab (TSV) or a comma (CSV, with standard double-quote quoting; two more CSV
 * columns may name the entry's source and target language, and an entry of another pair is skipped). Each phrase is
 * non-empty, at most 1024 UTF-8 bytes, without control characters or leading/trailing whitespace; no source appears
 * twice.
 */
export function parseGlossaryEntries(
  text: string,
  format: EntriesFormat,
  pair: { readonly sourceLang: string; readonly targetLang: string },
): ParsedEntries {
  const entries: GlossaryEntry[] = [];
  const firstLineOf = new Map<string, number>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    if (line === '') continue;
    const where = `line ${index + 1}`;
    const fields = format === 'tsv' ? line.split('\t') : splitCsvLine(line);
    if (fields === undefined)
      return { problem: `${where}: a quoted field is not closed, or has text after its closing quote` };
    if (format === 'csv' && fields.length === 4) {
      const [sourceLang, targetLang] = [fields[2].trim().toLowerCase(), fields[3].trim().toLowerCase()];
      if (sourceLang !== pair.sourceLang || targetLang !== pair.targetLang) continue;
    } else if (fields.length !== 2) {
      return {
        problem: `${where}: expected a source and a target phrase separated by ${format === 'tsv' ? 'a tab' : 'a comma'}, found ${fields.length} field(s)`,
      };
    }
    const [source, target] = fields;
    const problem = phraseProblem(source, 'source') ?? phraseProblem(target, 'target');
    if (problem) return { problem: `${where}: ${problem}` };
    const first = firstLineOf.get(source);
    if (first !== undefined) return { problem: `${where}: the source phrase "${source}" duplicates line ${first}` };
    firstLineOf.set(source, index + 1);
    entries.push({ source, target });
  }
  if (entries.length === 0) return { problem: 'the dictionary has no entries' };
  return { entries };
}

function phraseProblem(phrase: string, which: 'source' | 'target'): string | undefined {
  if (phrase === '') return `the ${which} phrase is empty`;
  if (FORBIDDEN.test(phrase)) return `the ${which} phrase contains a control character or line separator`;
  if (EDGE_SPACE.test(phrase)) return `the ${which} phrase has leading or trailing whitespace`;
  if (Buffer.byteLength(phrase, 'utf8') > GLOSSARY_LIMITS.phraseBytes)
    return `the ${which} phrase is longer than ${GLOSSARY_LIMITS.phraseBytes} UTF-8 bytes`;
  return undefined;
}

/** One CSV record's fields (RFC 4180 quoting); undefined when a quoted field is not closed. */
function splitCsvLine(line: string): string[] | undefined {
  const fields: string[] = [];
  let position = 0;
  for (;;) {
    if (line[position] === '"') {
      let value = '';
      position += 1;
      for (;;) {
        const quote = line.indexOf('"', position);
        if (quote < 0) return undefined;
        value += line.slice(position, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          position = quote + 2;
          continue;
        }
        position = quote + 1;
        break;
      }
      fields.push(value);
      if (position < line.length && line[position] !== ',') return undefined;
    } else {
      const comma = line.indexOf(',', position);
      fields.push(line.slice(position, comma < 0 ? line.length : comma));
      position = comma < 0 ? line.length : comma;
    }
    if (position >= line.length) return fields;
    position += 1; // the comma
  }
}

/** A dictionary's entries as DeepL answers them: TSV, one entry per line. */
export function entriesAsTsv(entries: readonly GlossaryEntry[]): string {
  return entries.map((entry) => `${entry.source}\t${entry.target}`).join('\n');
}
