import { stringLiteral } from './js-code';

/**
 * Violation paths, spelled exactly as `flattenErrors` spells class-validator's error tree:
 * a property made of digits is an index (`items[0]`), anything else joins with a dot.
 */
export function childPath(prefix: string, property: string): string {
  return /^\d+$/.test(property) ? `${prefix}[${property}]` : prefix === '' ? property : `${prefix}.${property}`;
}

/** Code computing `childPath(<pathVariable>, property)` for a property known when compiling. */
export function childPathCode(pathVariable: string, property: string): string {
  if (/^\d+$/.test(property)) return `${pathVariable} + ${stringLiteral(`[${property}]`)}`;
  return `(${pathVariable} === '' ? ${stringLiteral(property)} : ${pathVariable} + ${stringLiteral(`.${property}`)})`;
}
