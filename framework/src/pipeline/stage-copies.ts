import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { RouteStages } from './route-compiler';

/**
 * A hot route's own copy of the request path's stage modules.
 *
 * V8 keeps what it learns about a function's values (its feedback) per function, and every route runs the same stage
 * functions: the result writer, the argument readers, the step loop. In an app with several routes that feedback mixes
 * them all (polymorphic), so V8 calls each stage generically and inlines none. Evaluated again for one route, the
 * stages are functions of that route alone: V8 inlines the route's whole run into one function. Timed on the bench's
 * idiomatic server, `GET /users/{id}` after the other routes had run (docs/benchmarks/request-path.md).
 *
 * The copies are made from the modules' compiled JavaScript, read once, evaluated with a trailer naming the copy (V8's
 * compilation cache would otherwise hand back the shared functions) and requiring everything else (errors, the
 * response, the registries) from the shared modules, so `instanceof` and module state are the app's own. Where the
 * compiled files cannot be read (an app bundled into one file), there are no copies: routes keep the shared stages.
 */

/** The modules copied, relative to this one; a copy's requires of one of them get the same copy's. */
const COPIED = [
  './stages/run-steps',
  './stages/run-route',
  './stages/invoke',
  './stages/read-arguments',
  './stages/negotiate',
  './stages/write-result',
  './arguments',
  './body-argument',
];

/** Compiled sources by file, read once (null: unreadable, so no copies are made). */
let sources: Map<string, string> | null | undefined;
let copies = 0;

/** Reads the copied modules' compiled sources, once; null when any cannot be read. */
function readSources(read: (file: string) => string): Map<string, string> | null {
  const out = new Map<string, string>();
  try {
    for (const id of COPIED) {
      const file = require.resolve(id);
      out.set(file, read(file));
    }
  } catch {
    return null;
  }
  return out;
}

/**
 * New copies of the stage modules for one route (`label` names it in stack traces), or undefined when the compiled
 * sources cannot be read. `read` is for tests.
 */
export function stageCopies(
  label: string,
  read: (file: string) => string = (file) => fs.readFileSync(file, 'utf8'),
): RouteStages | undefined {
  if (sources === undefined) sources = readSources(read);
  if (sources === null) return undefined;
  const texts = sources;
  const tag = `${++copies}`;
  const made = new Map<string, Record<string, unknown>>();
  const load = (file: string): Record<string, unknown> => {
    let exports = made.get(file);
    if (exports !== undefined) return exports;
    exports = {};
    made.set(file, exports);
    const shared = createRequire(file);
    const copyRequire = (id: string): unknown => {
      const resolved = shared.resolve(id);
      return texts.has(resolved) ? load(resolved) : shared(id);
    };
    const module = { exports };
    const trailer = `\n//# sourceURL=${file}?route=${tag}:${encodeURIComponent(label)}`;
    new Function('exports', 'require', 'module', '__filename', '__dirname', texts.get(file)! + trailer)(
      exports,
      copyRequire,
      module,
      file,
      path.dirname(file),
    );
    return module.exports;
  };
  const of = (id: string) => load(require.resolve(id));
  try {
    return {
      compileArgument: of('./arguments').compileArgument as RouteStages['compileArgument'],
      negotiateStep: of('./stages/negotiate').negotiateStep as RouteStages['negotiateStep'],
      readArgumentsStep: of('./stages/read-arguments').readArgumentsStep as RouteStages['readArgumentsStep'],
      invokeStep: of('./stages/invoke').invokeStep as RouteStages['invokeStep'],
      compileResultWriter: of('./stages/write-result').compileResultWriter as RouteStages['compileResultWriter'],
      runRoute: of('./stages/run-route').runRoute as RouteStages['runRoute'],
    };
  } catch {
    // Code generation refused (node --disallow-code-generation-from-strings) or sources not what they should be:
    // the shared stages serve, and no later route tries again.
    sources = null;
    return undefined;
  }
}

/** @internal Forgets the sources read (tests of the unreadable case). */
export function forgetStageSources(): void {
  sources = undefined;
}
