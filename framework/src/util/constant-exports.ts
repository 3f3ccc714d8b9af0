/**
 * A module's exports as an object of plain, read-only values. tsc compiles each `export { x } from './y'` to
 * `exports.x = void 0` followed by a getter defined over it, and V8 turns an object whose data property becomes an
 * accessor into a dictionary: every `rest_uws_1.Response` in an adopter's compiled code is then a generic lookup and
 * a getter call (16 ns a read, hot, against 0 for a constant). Values defined with `defineProperty` keep the object
 * in V8's fast mode, and read-only ones are folded into the reading code as constants.
 *
 * Only for exports that never change (classes, functions, constants): a copy has no live binding.
 */
export function constantExports(exported: object): object {
  const out = {};
  Object.defineProperty(out, '__esModule', { value: true });
  for (const key of Object.keys(exported)) {
    Object.defineProperty(out, key, { value: (exported as Record<string, unknown>)[key], enumerable: true });
  }
  return out;
}
