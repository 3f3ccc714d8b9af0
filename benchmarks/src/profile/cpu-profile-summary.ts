/**
 * Reads a V8 .cpuprofile (written by `node --cpu-prof`, which `npm run bench -- --profile` adds to every
 * server) and tells where the server's time went: self time per area (rest.uws folder, npm package, Node
 * internals, GC) and the functions with the most self time. Idle time is left out of the percentages.
 */
import * as fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  areas: TimeShare[];
  functions: TimeShare[];
}

/** Names the part of the stack a frame belongs to, from its script URL. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const framework = /\/framework\/dist\/src\/([^/]+)(\/|\.js)/.exec(url);
  if (framework) return `rest.uws ${framework[1].replace(/\.js$/, '')}`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.slice(url.lastIndexOf('node_modules/')));
  if (packageMatch) return packageMatch[1];
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/benchmarks/dist/')) return 'benchmark server code';
  return url.split('/').slice(-2).join('/');
}

export function summarizeProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000),
  );

  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const where = frame.url ? `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const shares = (map: Map<string, number>) =>
    [...map]
      .map(([name, ms]) => ({ name, ms, percent: busyMs > 0 ? (ms / busyMs) * 100 : 0 }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top);
  return { busyMs, idleMs, areas: shares(areas), functions: shares(functions) };
}

export function summarizeProfileFile(file: string, top?: number): ProfileSummary {
  return summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, top);
}

export function formatProfileSummary(title: string, summary: ProfileSummary): string {
  const line = (share: TimeShare) =>
    `  ${share.percent.toFixed(1).padStart(5)}%  ${share.ms.toFixed(0).padStart(7)} ms  ${share.name}`;
  return [
    `${title}: ${summary.busyMs.toFixed(0)} ms busy, ${summary.idleMs.toFixed(0)} ms idle`,
    ' self time by area:',
    ...summary.areas.map(line),
    ' self time by function:',
    ...summary.functions.map(line),
  ].join('\n');
}
