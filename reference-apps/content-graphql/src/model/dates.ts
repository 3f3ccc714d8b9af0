/** Dates are stored as fixed-width ISO-8601 UTC strings so that text comparison is time comparison. */
export function toStoredDate(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`Invalid date: ${String(value)}`);
  return date.toISOString();
}

export function nowStored(): string {
  return new Date().toISOString();
}
