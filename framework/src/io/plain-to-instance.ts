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
    try {
      out[key] = (plain as Record<string, unknown>)[key];
    } catch {
      // A getter-only accessor of the class refuses assignment: the body's value becomes an own property.
      Object.defineProperty(out, key, {
        value: (plain as Record<string, unknown>)[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return out;
}

/** Types JSON already produces: no class to give. */
export function isPlainJsonType(type: Function | undefined): boolean {
  return (
    type === undefined || type === Object || type === Array || type === String || type === Number || type === Boolean
  );
}
