import type { HttpResponse as UwsResponse } from 'uWebSockets.js';
import { BadRequestException } from '../errors/http-errors';
import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import { kAbort, kLive, kReceivedHeaders } from '../http/internal';
import { errors } from '../errors/factories';

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
function framingError(headerList: readonly string[], framing: Framing): BadRequestException | undefined {
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
  // Read as uWebSockets.js reads them (the first value, '' when absent): once judged, there is at most one of each.
  framing.length = length ?? '';
  framing.encoding = encoding ?? '';
  if (lengths === 0 && encodings === 0) return undefined;
  if (lengths > 0 && encodings > 0) return bad('A request may not carry both Content-Length and Transfer-Encoding');
  if (encodings > 1) return bad('Several Transfer-Encoding headers');
  if (lengths > 1) return bad('Several Content-Length headers');
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
    return bad(`Unsupported Transfer-Encoding ${JSON.stringify(encoding.slice(0, 40))}: only "chunked" is accepted`);
  }
  if (length !== undefined && length.indexOf(',') >= 0) return bad('Several Content-Length values');
  if (length !== undefined && !isDecimalLength(length))
    return bad(`Invalid Content-Length ${JSON.stringify(length.slice(0, 40))}: expected 1 to 15 digits`);
  return undefined;
}

function bad(why: string): BadRequestException {
  return errors.RU_ERR_BODY_FRAMING(why);
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

/** A request's framing headers as uWebSockets.js reads them ('' when absent), and the refusal when they are ambiguous. */
export interface Framing {
  length: string;
  encoding: string;
  error: BadRequestException | undefined;
}

/** Copies the request's headers (it is then detached) and judges its framing on all of them, in one walk of the copy. */
export function judgeFraming(request: HttpServerRequest): Framing {
  request.detach();
  const framing: Framing = { length: '', encoding: '', error: undefined };
  framing.error = framingError(request[kReceivedHeaders](), framing);
  return framing;
}

/**
 * Sends the refusal of an ambiguous request (`answer`, which ends `response`) with the connection closed
 * after it, without letting anything that came after the request reach a handler. uWebSockets.js dispatches
 * the next request of the same read as soon as the request callback returns; an answer written in it would
 * not stop that (the close it asks for waits for the end of the read, and the next request clears it). A
 * pending answer does: uWebSockets.js closes a connection that sends a request while the previous one is
 * unanswered. So the answer goes out on the next turn of the event loop, once that read is over; when nothing
 * followed the request, the client gets it, and the connection is closed. (One case stays open, see
 * docs/security.md: a client that leaves earlier answers unread keeps the answer queued, and uWebSockets.js
 * reads on until it is sent.)
 */
export function refuseLater(res: UwsResponse, response: HttpServerResponse, answer: () => unknown): void {
  response.closeConnectionAfter();
  response[kLive] = false;
  res.onAborted(() => response[kAbort]());
  setImmediate(() => {
    if (!response.aborted()) answer();
  });
}
