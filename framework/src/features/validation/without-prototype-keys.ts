/**
 * Drops keys that could reach a prototype (`__proto__`, `constructor`, `prototype`), at any depth up to
 * 64, before class-transformer copies a body: a copy made of plain objects and arrays (holes kept).
 */
export function withoutPrototypeKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const copy: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) if (i in value) copy[i] = withoutPrototypeKeys(value[i], depth + 1);
    return copy;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype')
      out[key] = withoutPrototypeKeys((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/** The depth below which `withoutPrototypeKeys` copies (deeper values are kept as they are). */
export const PROTOTYPE_KEYS_DEPTH = 64;
