import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Known-vulnerable dependency versions stay out of the workspace: every package that loads `ws` (the
 * framework's tests, the benchmarks, voice-stream, and uWebSockets.js, which pins 8.13.0 itself and is
 * lifted by the root `overrides`) resolves a version fixed for the header-flood denial of service
 * (CVE-2024-37890, fixed in 8.17.1).
 */
const ROOT = path.resolve(__dirname, '../../../..');
const FIXED = [8, 17, 1];

function atLeast(version: string, fixed: readonly number[]): boolean {
  const parts = version.split('.').map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < fixed.length; i++) {
    if ((parts[i] ?? 0) !== fixed[i]) return (parts[i] ?? 0) > fixed[i]!;
  }
  return true;
}

function wsVersionFrom(dir: string): string {
  const manifest = require.resolve('ws/package.json', { paths: [dir] });
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

const users = ['framework', 'benchmarks', 'reference-apps/voice-stream', 'node_modules/uWebSockets.js'];

for (const user of users) {
  test(`ws as ${user} loads it is 8.17.1 or later`, (t) => {
    const version = wsVersionFrom(path.join(ROOT, user));
    t.true(atLeast(version, FIXED), `${user} loads ws ${version}`);
  });
}

test('no package.json of the workspace asks for a ws older than 8.17.1, and the root overrides the one uWebSockets.js pins', (t) => {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    overrides?: Record<string, string>;
  };
  t.true(atLeast((root.overrides?.ws ?? '0').replace(/^[\^~]/, ''), FIXED), `overrides.ws: ${root.overrides?.ws}`);
  for (const user of users.slice(0, 3)) {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, user, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const spec = manifest.dependencies?.ws ?? manifest.devDependencies?.ws;
    if (spec !== undefined) t.true(atLeast(spec.replace(/^[\^~]/, ''), FIXED), `${user} asks for ws ${spec}`);
  }
});
