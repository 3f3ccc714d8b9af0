const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Gives parsed JSON the prototype of the declared body class (so its methods work) without
 * calling its constructor, and never copies keys that could reach a prototype.
 * When class-transformer is configured (validation), it does this job instead, with nested types.
 */
export function plainToClassShallow(type: Function, plain: unknown): unknown {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return plain;
  const out = Object.create(type.prototype);
  for (const key of Object.keys(plain)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    out[key] = (plain as Record<string, unknown>)[key];
  }
  return out;
}

/** Types JSON already produces: no class to give. */
export function isPlainJsonType(type: Function | undefined): boolean {
  return type === undefined || type === Object || type === Array || type === String || type === Number || type === Boolean;
}
