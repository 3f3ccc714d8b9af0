import fs from 'node:fs';
import path from 'node:path';

/** framework/src, from the compiled tests (framework/dist/test/architecture). */
export const SRC = path.resolve(__dirname, '../../../src');

/** Every TypeScript file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}
