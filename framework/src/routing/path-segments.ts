import { errors } from '../errors/factories';

/**
 * Splits a request path into decoded segments without matrix parameters (`;a=b`), ignoring one
 * trailing slash. Malformed percent-encoding is the client's error: 400.
 */
export function pathSegments(path: string): string[] {
  if (path.indexOf('%') < 0 && path.indexOf(';') < 0) {
    // Nothing to decode or strip: slice between slashes (cheaper than split + shift on this hot path).
    const plain: string[] = [];
    let start = 1;
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
    while (start <= end) {
      let slash = path.indexOf('/', start);
      if (slash < 0 || slash > end) slash = end;
      plain.push(path.slice(start, slash));
      start = slash + 1;
    }
    return plain;
  }
  const parts = path.split('/');
  const out: string[] = [];
  const last = parts.length - 1;
  for (let i = 1; i <= last; i++) {
    let seg = parts[i]!;
    if (seg.length === 0 && i === last && i > 1) break;
    const semi = seg.indexOf(';');
    if (semi >= 0) seg = seg.slice(0, semi);
    if (seg.indexOf('%') >= 0) {
      try {
        seg = decodeURIComponent(seg);
      } catch {
        throw errors.RU_ERR_BAD_PATH(
          `Malformed percent-encoding in the path: ${path.length > 200 ? path.slice(0, 200) + '...' : path}`,
        );
      }
    }
    out.push(seg);
  }
  return out;
}

/** The path as a static-route key: without one trailing slash. */
export function staticKey(path: string): string {
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path;
}
