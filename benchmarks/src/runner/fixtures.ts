/** Writes what the servers and wrk need: the 1 MB file (deterministic bytes) and the 1 KB order body. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_ORDER } from '../contract/order';
import { STATIC_FILE_NAME, STATIC_FILE_SIZE } from '../contract/routes';
import type { ScenarioFixtures } from '../scenarios/scenarios';

/** Pseudo-random, reproducible bytes (SHA-256 in counter mode), so every run serves the same file. */
function deterministicBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let offset = 0, counter = 0; offset < size; counter++) {
    const block = createHash('sha256').update(`rest.uws-bench-${counter}`).digest();
    offset += block.copy(out, offset);
  }
  return out;
}

export interface PreparedFixtures extends ScenarioFixtures {
  staticDir: string;
}

export function prepareFixtures(dataDir: string): PreparedFixtures {
  const staticDir = path.join(dataDir, 'static');
  fs.mkdirSync(staticDir, { recursive: true });
  const staticFile = path.join(staticDir, STATIC_FILE_NAME);
  if (!fs.existsSync(staticFile) || fs.statSync(staticFile).size !== STATIC_FILE_SIZE) {
    fs.writeFileSync(staticFile, deterministicBytes(STATIC_FILE_SIZE));
  }
  const orderFile = path.join(dataDir, 'order.json');
  fs.writeFileSync(orderFile, JSON.stringify(SAMPLE_ORDER));
  return { staticDir, staticFile, orderFile };
}
