import { BadRequestException } from '../errors/http-errors';

/**
 * How a request's body is delimited, judged strictly (RFC 9112 6.1 and 6.3), since a proxy in front may
 * read an ambiguous request differently from uWebSockets.js, which is the root of request smuggling.
 *
 * What uWebSockets.js 20.30 does, measured over raw sockets: it takes the first `Content-Length` and
 * ignores the others; it treats any non-empty first `Transfer-Encoding` as chunked (`identity`, `gzip,
 * chunked`, `xchunked` alike); an empty first value counts as absent; it closes the connection by itself
 * only when a request carries both headers non-empty. The bytes after the length it chose are parsed and
 * dispatched as the next request at once, in the same read. So every request with a framing header is
 * judged here, on all of its headers, before anything else runs.
 */
export function framingError(headerList: readonly string[]): BadRequestException | undefined {
  let length: string | undefined;
  let encoding: string | undefined;
  let lengths = 0;
  let encodings = 0;
  for (let i = 0; i < headerList.length; i += 2) {
    const name = headerList[i];
    if (name === 'content-length') {
      lengths++;
      length = headerList[i + 1]!;
    } else if (name === 'transfer-encoding') {
      encodings++;
      encoding = headerList[i + 1]!;
    }
  }
  if (lengths === 0 && encodings === 0) return undefined;
  if (lengths > 0 && encodings > 0) return bad('A request may not carry both Content-Length and Transfer-Encoding');
  if (encodings > 1) return bad('Several Transfer-Encoding headers');
  if (lengths > 1) return bad('Several Content-Length headers');
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
    return bad(`Unsupported Transfer-Encoding ${JSON.stringify(encoding.slice(0, 40))}: only "chunked" is accepted`);
  }
  if (length !== undefined && length.indexOf(',') >= 0) return bad('Several Content-Length values');
  if (length !== undefined && !isDecimalLength(length)) return bad(`Invalid Content-Length ${JSON.stringify(length.slice(0, 40))}: expected 1 to 15 digits`);
  return undefined;
}

function bad(why: string): BadRequestException {
  return new BadRequestException(why, { code: 'RU_ERR_BODY_FRAMING' });
}

/** 1 to 15 decimal digits (larger values are beyond any body limit, and beyond exact doubles). */
function isDecimalLength(text: string): boolean {
  if (text.length === 0 || text.length > 15) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
