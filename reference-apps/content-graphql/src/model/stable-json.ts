/**
 * JSON with object keys sorted, as a cache key for argument objects (GraphQL gives their keys in the order the
 * client wrote them); `undefined` is `u`. Called several times per element field, so written without
 * intermediate arrays.
 */
export function stableJson(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index ? ',' : '') + stableJson(value[index]);
    return `${text}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  if (keys.length > 1) keys.sort();
  let text = '{';
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    text += `${index ? ',' : ''}${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`;
  }
  return `${text}}`;
}
