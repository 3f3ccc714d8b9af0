import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Modules do not re-export what they import (`export { x } from './y'`), feature barrels (index.ts) aside. tsc writes a
 * re-export as `exports.x = void 0` followed by a getter defined over it, and V8 turns an object whose data
 * property becomes an accessor into a dictionary: every read of any export of that module (`module_1.x`, as tsc
 * compiles an import) is then a generic lookup, and a getter call, instead of a constant. On the request path
 * that was 0.2 µs per validated body (the validation plugin read NOT_SIMPLE from validator.ts). Checked on V8
 * itself, in a child process that may ask it (`--allow-natives-syntax`). The public entry re-exports everything, and
 * hands its exports out as constants (util/constant-exports.ts): adopters' code reads them on every request.
 */

const DIST_SRC = path.resolve(__dirname, '../../src');

test('every module the public entry loads keeps its exports in fast mode, feature barrels aside', (t) => {
  const probe = `
    require(${JSON.stringify(path.join(DIST_SRC, 'index.js'))});
    const slow = [];
    for (const [file, mod] of Object.entries(require.cache)) {
      if (!file.startsWith(${JSON.stringify(DIST_SRC + path.sep)})) continue;
      if (path.basename(file) === 'index.js' && path.dirname(file) !== ${JSON.stringify(DIST_SRC)}) continue;
      const e = mod.exports;
      if (e !== null && typeof e === 'object' && !%HasFastProperties(e)) slow.push(path.relative(${JSON.stringify(DIST_SRC)}, file));
    }
    const loaded = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(DIST_SRC + path.sep)})).length;
    process.stdout.write(JSON.stringify({ slow, loaded }));
  `;
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '-e', `const path = require('node:path');${probe}`],
    { encoding: 'utf8' },
  );
  const { slow, loaded } = JSON.parse(out) as { slow: string[]; loaded: number };
  t.true(loaded > 100, `the probe loaded the framework (${loaded} modules)`);
  t.deepEqual(
    slow,
    [],
    'these modules re-export, so their exports are a dictionary: import from the defining module instead',
  );
});

test("the public entry's exports are read-only values, not getters (V8 folds them into adopters' code)", (t) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const entry = require(path.join(DIST_SRC, 'index.js')) as Record<string, unknown>;
  const getters = Object.keys(entry).filter((key) => Object.getOwnPropertyDescriptor(entry, key)!.get !== undefined);
  t.deepEqual(getters, []);
  t.true(Object.keys(entry).length > 150);
  t.is(entry.__esModule, true);
  // rest.uws/plugin: the features read it on the request path.
  const plugin = require(path.join(DIST_SRC, 'plugin.js')) as Record<string, unknown>;
  t.deepEqual(
    Object.keys(plugin).filter((key) => Object.getOwnPropertyDescriptor(plugin, key)!.get !== undefined),
    [],
  );
  t.true(Object.keys(plugin).length > 100);
  t.is(plugin.RoutingContext, entry.RoutingContext, 'the same values as rest.uws');
});
