import test from 'ava';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { thisMachine, uwsBuildFor } from '../../src/adapter/uws-builds';

const index = path.join(__dirname, '..', '..', 'src', 'index.js');
const script = `const { RestBuilder } = require(${JSON.stringify(index)}); new RestBuilder().build(); console.log('built');`;

function run(env: Record<string, string>): { code: number; out: string } {
  try {
    const out = execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { code: 0, out };
  } catch (err: any) {
    return { code: err.status ?? 1, out: `${err.stdout}${err.stderr}` };
  }
}

/** v20.30's package has a JavaScript fallback (UWS_USE_FALLBACK forces it); v20.57's has none and ignores it. */
function installedHasFallback(): boolean {
  return fs.existsSync(path.join(path.dirname(require.resolve('uWebSockets.js')), 'fallback'));
}

test('the slow JavaScript fallback of uWebSockets.js is refused, with the reason and the build to install', (t) => {
  const r = run({ UWS_USE_FALLBACK: '1' });
  if (!installedHasFallback()) {
    t.is(r.code, 0, `v20.57 has no fallback to switch to: ${r.out}`);
    return;
  }
  t.not(r.code, 0);
  t.regex(
    r.out,
    /rest\.uws: uWebSockets\.js \(@trufflesuite\/uws-js-unofficial 20\.30\.0-unofficial\.0\) could not load its native binary uws_linux_x64_\d+\.node/,
  );
  t.regex(r.out, /Node v\d+\.\d+\.\d+ \(ABI \d+\), linux-x64, glibc \d+\.\d+/);
  const advice = uwsBuildFor(thisMachine());
  t.true(r.out.includes(`Fix: add "uWebSockets.js": "${advice.spec}" to your dependencies`), r.out);
  t.regex(r.out, /REST_UWS_ALLOW_FALLBACK=1/);
});

test('the fallback runs when explicitly allowed; the native binary loads normally', (t) => {
  const allowed = run({ UWS_USE_FALLBACK: '1', REST_UWS_ALLOW_FALLBACK: '1' });
  t.is(allowed.code, 0, allowed.out);
  t.regex(allowed.out, /built/);
  const native = run({});
  t.is(native.code, 0, native.out);
});
