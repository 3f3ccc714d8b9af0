/**
 * What a V8 heap snapshot (.heapsnapshot, as `node --heapsnapshot-signal` writes it) holds, added up per kind of
 * object: constructor name for objects, the function name for closures, one line each for strings, arrays,
 * code and the rest. Two summaries compared show what grew between them (heap-diff.ts).
 */
import * as fs from 'node:fs';

export interface HeapGroup {
  count: number;
  selfBytes: number;
}

export interface HeapSummary {
  totalBytes: number;
  nodeCount: number;
  groups: Map<string, HeapGroup>;
}

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Objects are grouped by constructor; strings and numbers of every name would be thousands of groups. */
function groupName(type: string, name: string): string {
  switch (type) {
    case 'object':
      return name;
    case 'closure':
      return `(closure) ${name || '(anonymous)'}`;
    case 'native':
      return `(native) ${name.replace(/\s*\/.*$/, '')}`;
    case 'hidden':
      return `(hidden) ${name.replace(/\s*\/.*$/, '')}`;
    default:
      return `(${type})`;
  }
}

export function summarizeSnapshot(json: string): HeapSummary {
  const file = JSON.parse(json) as SnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  let totalBytes = 0;
  for (let offset = 0; offset < file.nodes.length; offset += stride) {
    const name = groupName(types[file.nodes[offset + typeAt]], file.strings[file.nodes[offset + nameAt]]);
    const size = file.nodes[offset + sizeAt];
    totalBytes += size;
    const group = groups.get(name);
    if (group) {
      group.count++;
      group.selfBytes += size;
    } else {
      groups.set(name, { count: 1, selfBytes: size });
    }
  }
  return { totalBytes, nodeCount: file.nodes.length / stride, groups };
}

export function summarizeSnapshotFile(file: string): HeapSummary {
  return summarizeSnapshot(fs.readFileSync(file, 'utf8'));
}
