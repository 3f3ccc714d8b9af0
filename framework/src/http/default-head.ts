import { Buffer } from 'node:buffer';
import { statusLine } from '../errors/http-status';
import { isAscii } from './header-bytes';
import { checkHeader, hasName } from './header-rules';
import { lowerCaseName } from './header-name';

/** Content types a DefaultHead keeps composed heads for; beyond, each answer composes its own (HttpServerResponse.writeHead). */
const MAX_CONTENT_TYPES = 64;
/** Statuses composed per content type. */
const MAX_STATUSES = 16;

/** The heads composed for one content type: `heads[i]` is the head of `statuses[i]`. */
interface ComposedHeads {
  readonly statuses: number[];
  readonly heads: ArrayBuffer[];
}

/**
 * An app's default headers (`X-Content-Type-Options: nosniff` unless configured), and the usual answer's whole head
 * composed from them: status line, the `Content-Type` the framework's writer put, and the defaults, as the bytes of
 * one `writeStatus` call. uWebSockets.js writes what `writeStatus` is given between `HTTP/1.1 ` and a CRLF as it is,
 * so `200 OK\r\ncontent-type: application/json\r\nX-Content-Type-Options: nosniff` goes out as a status line and two
 * headers, the same bytes as three calls would write. Each text uWebSockets.js is given costs it a `GetBackingStore`
 * of V8's (about 50 ns, timed) and each call a crossing into C++: a JSON answer passed five texts in three calls.
 *
 * Only texts checked as header values compose (no CR, LF or NUL: `checkHeader`, again here), and only ASCII ones
 * (then their bytes are what uWebSockets.js would encode). The set is bounded: an answer outside it (another header
 * set, a content type made per request) has its head composed per answer by the response, as one text too.
 */
export class DefaultHead {
  /** Name, lower-case name and value of each default header, repeated (null when there are none). */
  readonly texts: readonly string[] | null;
  /** The defaults can be part of a composed head (checked header texts, ASCII). */
  private readonly composes: boolean;
  /** By content type ('' for an answer without one). */
  private readonly composed = new Map<string, ComposedHeads>();
  /** The content type asked last and its heads: the same one again costs a comparison, not a map lookup. */
  private lastType: string | null = null;
  private lastComposed: ComposedHeads | undefined;

  constructor(defaults: ReadonlyArray<readonly [string, string]>) {
    this.composes = defaults.every(([name, value]) => isHeader(name, value) && isAscii(name) && isAscii(value));
    const texts = defaults.flatMap(([name, value]) => [name, lowerCaseName(name), value]);
    this.texts = texts.length > 0 ? texts : null;
  }

  /**
   * The head of an answer whose only header set is `content-type: contentType` ('' for none), as one text, or
   * undefined when it is not kept composed (then the response composes the answer's head itself: `headText`).
   */
  head(status: number, contentType: string): ArrayBuffer | undefined {
    let composed = contentType === this.lastType ? this.lastComposed : this.composed.get(contentType);
    if (composed === undefined) {
      if (!this.composes || this.composed.size >= MAX_CONTENT_TYPES || !composable(contentType)) return undefined;
      composed = { statuses: [], heads: [] };
      this.composed.set(contentType, composed);
    }
    this.lastType = contentType;
    this.lastComposed = composed;
    const statuses = composed.statuses;
    for (let i = 0; i < statuses.length; i++) if (statuses[i] === status) return composed.heads[i];
    if (statuses.length >= MAX_STATUSES) return undefined;
    const head = this.compose(status, contentType);
    statuses.push(status);
    composed.heads.push(head);
    return head;
  }

  private compose(status: number, contentType: string): ArrayBuffer {
    const bytes = Buffer.from(
      headText(status, contentType === '' ? null : ['content-type', contentType], this.texts),
      'latin1',
    );
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

/**
 * A head as the text of one `writeStatus` call: the status line, the answer's headers (name, value; repeated), then
 * the defaults (`DefaultHead.texts`) whose names the answer did not set. Every name and value was checked for CR, LF
 * and NUL when it was set (header-rules.ts), as it must be for uWebSockets.js's `writeHeader` too.
 */
export function headText(
  status: number,
  headers: readonly string[] | null,
  defaults: readonly string[] | null,
): string {
  let text = statusLine(status);
  if (headers !== null)
    for (let i = 0; i < headers.length; i += 2) text += '\r\n' + headers[i]! + ': ' + headers[i + 1]!;
  if (defaults !== null) {
    for (let i = 0; i < defaults.length; i += 3)
      if (headers === null || !hasName(headers, defaults[i + 1]!))
        text += '\r\n' + defaults[i]! + ': ' + defaults[i + 2]!;
  }
  return text;
}

/** A content type that may go inside a composed head: a valid header value, ASCII. */
function composable(contentType: string): boolean {
  return contentType === '' || (isHeader('content-type', contentType) && isAscii(contentType));
}

function isHeader(name: string, value: string): boolean {
  try {
    checkHeader(name, value, lowerCaseName(name));
  } catch {
    return false;
  }
  return true;
}
