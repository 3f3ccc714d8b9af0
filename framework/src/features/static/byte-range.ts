/** One satisfiable byte range, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header for a body of `size` bytes: the single range to send, 'unsatisfiable' (416),
 * or undefined to send the whole body: no header, another unit, bad syntax, or several ranges
 * (the RFC lets a server ignore Range; multipart/byteranges answers are not produced).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined || size === 0) return undefined;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (m === null) return undefined;
  const specs = m[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (specs.length !== 1) return undefined;
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]!);
  if (spec === null || (spec[1] === '' && spec[2] === '')) return undefined;
  if (spec[1] === '') {
    // Suffix range: the last N bytes.
    const suffix = Number(spec[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const last = spec[2] === '' ? Infinity : Number(spec[2]);
  if (last < start) return undefined; // syntactically invalid: ignore
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}
