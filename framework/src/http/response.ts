import { Buffer } from 'node:buffer';
import type { HttpResponse as UwsResponse, RecognizedString } from 'uWebSockets.js';
import type { Duplex } from 'node:stream';
import { BodyPipe, COMPLETE_BODY, type ResponseChunk, STREAMED_BODY, type SentBody } from './body-pipe';
import { kAbort, kAppFinished, kAppSend, kDefaultHead, kLive, kRouteSend, kSendContext, kUpgraded } from './internal';
import { ResponseHead } from './response-head';
import { headText, type DefaultHead } from './default-head';

export type { ResponseChunk };

/**
 * @internal A route's send hooks as the response runs them: `hook` gets the context held in `kSendContext`; it is
 * not called for a complete body shorter than `minBytes` (0: always called; streamed bodies always are).
 */
export interface RouteSend {
  readonly hook: (ctx: any, body: ResponseChunk | undefined, sent: SentBody) => ResponseChunk | undefined | void;
  readonly minBytes: number;
}

/**
 * The framework's response. Status and headers are buffered in JavaScript (`ResponseHead`, http/response-head.ts) and
 * flushed with the first body bytes, in one cork; every write checks that the client is still there, so nothing
 * is ever written to an aborted or ended uWebSockets.js response.
 */
export class HttpServerResponse extends ResponseHead {
  private readonly _res: UwsResponse;
  /** @internal true while the uWebSockets.js callback runs (writes are corked by uWebSockets.js itself) */
  [kLive] = true;
  private _headSent = false;
  private _ended = false;
  private _aborted = false;
  private _abortListeners: Array<() => void> | null = null;
  private _endListeners: Array<() => void> | null = null;
  /** HEAD request: no body goes out (the response holds it back: uWebSockets.js 20.30 would send it). */
  readonly isHead: boolean;
  /** A HEAD answer was written in chunks: its length is unknown, so none is announced. */
  private _headStreamed = false;
  private _closeConnection = false;
  /** @internal headers every response of the app carries unless set, and the heads composed with them */
  [kDefaultHead]: DefaultHead | null = null;
  /** @internal the app's send hooks (null when none), given `kSendContext`: run once, before the head is written */
  [kAppSend]: ((ctx: any, body: ResponseChunk | undefined, sent: SentBody) => ResponseChunk | undefined | void) | null =
    null;
  /** @internal the route's send hooks (`RouteHooks.onSend`), run after the app's with `kSendContext` */
  [kRouteSend]: RouteSend | null = null;
  /** @internal the routing context given to the send hooks and to `kAppFinished` */
  [kSendContext]: unknown = null;
  /**
   * @internal the app's response hooks (null when none), given `kSendContext`: run once, before the end or abort
   * listeners, when the response ended (a 101 included) or the client left. A slot, not a listener: no closure
   * and no listener list per request.
   */
  [kAppFinished]: ((ctx: any) => void) | null = null;
  /** The body goes out through a transform (`streamBodyThrough`). */
  private _pipe: BodyPipe | null = null;

  constructor(res: UwsResponse, isHead = false) {
    super();
    this._res = res;
    this.isHead = isHead;
  }

  /** Status and headers were sent: they can no longer change. */
  headersSent(): boolean {
    return this._headSent;
  }

  /** The response was ended (by `end` or by a writer). */
  ended(): boolean {
    return this._ended;
  }

  /** The client went away; writes are ignored from now on. */
  aborted(): boolean {
    return this._aborted;
  }

  /** Called once if the client goes away before the response ends. */
  onAborted(listener: () => void): this {
    if (this._aborted) listener();
    // A list made with its first listener: an empty one would grow to 17 slots on its first push.
    else if (this._abortListeners === null) this._abortListeners = [listener];
    else this._abortListeners.push(listener);
    return this;
  }

  /** Called once when the response has been ended (not when aborted). */
  onEnd(listener: () => void): this {
    if (this._ended && !this._aborted) listener();
    else if (this._endListeners === null) this._endListeners = [listener];
    else this._endListeners.push(listener);
    return this;
  }

  /**
   * Writes a chunk (status and headers go first). Returns false when the socket buffer is full:
   * wait for `onWritable` before writing more.
   */
  write(chunk: ResponseChunk): boolean {
    if (this._ended || this._aborted) return false;
    let ok = true;
    this.run(() => {
      this.writeHead(STREAMED_BODY);
      if (this.isHead) this._headStreamed = true;
      // A 204 or 304 has no content: its chunks are dropped, as a HEAD answer's are.
      else if (this.hasNoContent()) return;
      else if (this._pipe !== null) ok = this._pipe.write(chunk);
      else ok = this._res.write(chunk as RecognizedString);
    });
    return ok;
  }

  /** Ends the response, with an optional last chunk. A second call is ignored. */
  end(body?: ResponseChunk): void {
    if (this._ended) return;
    this._ended = true;
    if (this._aborted) return;
    if (this[kLive]) this.finish(body);
    else this._res.cork(() => this.finish(body));
    // A piped body ends when its last transformed bytes are out.
    if (this._pipe === null) this.emitEnd();
  }

  /**
   * Ends with headers only, announcing `contentLength` (HEAD answers of streamed files).
   * The installed uWebSockets.js build terminates the process when endWithoutBody gets arguments,
   * so the length is written as a header and endWithoutBody is called bare.
   */
  endWithoutBody(contentLength?: number): void {
    if (this._ended) return;
    this._ended = true;
    if (this._aborted) return;
    this.run(() => {
      this.writeHead(COMPLETE_BODY);
      if (contentLength !== undefined) this._res.writeHeader('Content-Length', String(contentLength));
      this._res.endWithoutBody();
    });
    this.emitEnd();
  }

  /**
   * Streams one chunk of a body of known total size with backpressure (uWebSockets.js tryEnd):
   * returns `[ok, done]`; when not ok, wait for `onWritable` and resend from `getWriteOffset()`.
   */
  tryEnd(chunk: ResponseChunk, totalSize: number): [boolean, boolean] {
    if (this._ended || this._aborted) return [false, true];
    let result: [boolean, boolean] = [false, false];
    this.run(() => {
      if (!this._headSent) this.writeHead({ streamed: true, length: totalSize });
      if (this.isHead) {
        this._res.writeHeader('Content-Length', String(totalSize));
        this._res.endWithoutBody();
        result = [true, true];
      } else if (this.hasNoContent()) {
        this.finishWithoutContent();
        result = [true, true];
      } else if (this._pipe !== null) {
        result = this._pipe.tryEnd(chunk, totalSize);
      } else {
        result = this._res.tryEnd(chunk as RecognizedString, totalSize);
      }
    });
    if (result[1]) {
      this._ended = true;
      if (this._pipe === null) this.emitEnd();
    }
    return result;
  }

  /** Bytes of the body written so far (for resuming after backpressure). */
  getWriteOffset(): number {
    if (this._pipe !== null) return this._pipe.offset();
    return this._aborted ? 0 : this._res.getWriteOffset();
  }

  /** Called when the socket can take more after backpressure; return true when the handler wrote. */
  onWritable(handler: (offset: number) => boolean): this {
    if (this._aborted || this._ended) return this;
    if (this._pipe !== null) this._pipe.onWritable(handler);
    else this._res.onWritable(handler);
    return this;
  }

  /**
   * Sends the body through `transform` (a zlib stream): for send hooks, before the head is written. The body goes
   * out chunked (no Content-Length), with backpressure end to end (`getWriteOffset` counts the bytes given). False,
   * and the body untouched, on HEAD, once the head is written, or when already piped (docs/reference/plugins.md).
   */
  streamBodyThrough(transform: Duplex): boolean {
    if (this._headSent || this.isHead || this._aborted || this._pipe !== null) return false;
    // The answer now outlives the request callback even for a synchronous route: uWebSockets.js needs onAborted.
    this._res.onAborted(() => this[kAbort]());
    this._pipe = new BodyPipe(transform, {
      writeOut: (chunk) => {
        let ok = true;
        this.run(() => void (ok = this._res.write(chunk)));
        return ok;
      },
      // The listener runs after uWebSockets.js's writable callback, not inside it (see BodyPipe).
      whenWritable: (listener) => void this._res.onWritable(() => (setImmediate(listener), true)),
      endOut: () => {
        this.run(() => this._res.end(undefined, this._closeConnection));
        this.emitEnd();
      },
      fail: () => {
        if (this._aborted) return;
        this._res.close();
        this[kAbort]();
      },
      gone: () => this._aborted,
    });
    return true;
  }

  /** Asks for the connection to be closed once this response is sent (e.g. after refusing a body unread). */
  closeConnectionAfter(): this {
    this._closeConnection = true;
    return this;
  }

  /** Closes the connection at once (no more response). */
  close(): void {
    if (this._aborted) return;
    if (this._ended && this._pipe === null) return;
    this._ended = true;
    this._pipe?.destroy();
    this._res.close();
  }

  /** Runs a batch of writes corked: one syscall instead of several. */
  cork(fn: () => void): this {
    if (this._aborted) return this;
    this.run(fn);
    return this;
  }

  /** @internal the adapter calls this from uWebSockets.js's onAborted */
  [kAbort](): void {
    if (this._aborted) return;
    this._aborted = true;
    this._pipe?.destroy();
    if (this[kAppFinished] !== null) this.runAppFinished();
    const listeners = this._abortListeners;
    this._abortListeners = null;
    if (listeners) for (const l of listeners) safely(l);
  }

  /**
   * @internal the adapter upgraded the connection to a WebSocket (uWebSockets.js wrote the 101): the response is
   * over, with status 101, and its end listeners (the app's response hooks) are told; send hooks do not run, as
   * no body follows
   */
  [kUpgraded](): void {
    if (this._ended) return;
    this._status = 101;
    this._statusSet = true;
    this._headSent = true;
    this._ended = true;
    this[kAppSend] = null;
    this[kRouteSend] = null;
    this.emitEnd();
  }

  private run(fn: () => void): void {
    if (this[kLive]) fn();
    else this._res.cork(fn);
  }

  private finish(body: ResponseChunk | undefined): void {
    if (!this._headSent && (this[kAppSend] !== null || this[kRouteSend] !== null))
      body = this.runSendHooks(body, COMPLETE_BODY);
    this.writeHead(COMPLETE_BODY);
    if (this.hasNoContent()) this.finishWithoutContent();
    else if (this.isHead) this.finishHead(body);
    else if (this._pipe !== null) this._pipe.end(body);
    else this._res.end(body as RecognizedString, this._closeConnection);
  }

  /** A 204 or 304 not piped through a send hook's transform: its answer ends with the head (finishWithoutContent). */
  private hasNoContent(): boolean {
    return this._pipe === null && (this._status === 204 || this._status === 304);
  }

  /**
   * A 204 or 304 has no content (RFC 9110, 15.3.5 and 15.4.5): a body given is not sent, since a keep-alive client
   * would read it as the start of the next answer. Nor is a length: a 204 must not have one, and a 304's would have
   * to be that of the 200 answer (8.6), which `end()` does not know (`endWithoutBody(length)` announces one).
   */
  private finishWithoutContent(): void {
    if (this._closeConnection) return void this._res.end(undefined, true);
    this._res.endWithoutBody();
  }

  /** The app's send hooks, then the route's, once: each may change the head, and replace a complete body. */
  private runSendHooks(body: ResponseChunk | undefined, sent: SentBody): ResponseChunk | undefined {
    const app = this[kAppSend];
    const route = this[kRouteSend];
    this[kAppSend] = null;
    this[kRouteSend] = null;
    if (app !== null) {
      const replaced = app(this[kSendContext], body, sent);
      if (replaced !== undefined && !sent.streamed) body = replaced;
    }
    // A complete body too short for any of the route's hooks (compression's threshold) skips them unseen.
    if (
      route !== null &&
      (sent.streamed ||
        route.minBytes === 0 ||
        (body !== undefined && byteLengthAtLeast(body, route.minBytes) >= route.minBytes))
    ) {
      const replaced = route.hook(this[kSendContext], body, sent);
      if (replaced !== undefined && !sent.streamed) body = replaced;
    }
    return body;
  }

  /**
   * uWebSockets.js 20.30 sends the body of a HEAD answer (seen on the wire), which a keep-alive client then reads as
   * the start of its next answer: announce the body's length and send none. Closing after needs end(), which
   * announces a length of 0 instead.
   */
  private finishHead(body: ResponseChunk | undefined): void {
    if (this._closeConnection) return void this._res.end(undefined, true);
    if (!this._headStreamed)
      this._res.writeHeader(
        'Content-Length',
        String(body === undefined ? 0 : Buffer.byteLength(body as string | Uint8Array | ArrayBuffer)),
      );
    this._res.endWithoutBody();
  }

  private writeHead(sent: SentBody): void {
    if (this._headSent) return;
    // A streamed body (a complete one ran them in finish): the hooks may change status and headers, not the body.
    if (this[kAppSend] !== null || this[kRouteSend] !== null) this.runSendHooks(undefined, sent);
    this._headSent = true;
    const res = this._res;
    const status = this._status;
    const h = this._headers;
    const defaults = this[kDefaultHead];
    // The usual answer (no header but the writer's Content-Type) in one call: its head composed once (default-head.ts).
    if (defaults !== null && (h === null || (h.length === 2 && h[0] === 'content-type'))) {
      const head = defaults.head(status, h === null ? '' : h[1]!);
      if (head !== undefined) {
        res.writeStatus(head);
        return;
      }
    }
    // Any other head is one text too, composed per answer: one crossing into uWebSockets.js instead of one per header.
    res.writeStatus(headText(status, h, defaults === null ? null : defaults.texts));
  }

  /** The app's response hooks, once (an end after an abort, or the reverse, does not run them again). */
  private runAppFinished(): void {
    const hook = this[kAppFinished]!;
    this[kAppFinished] = null;
    const ctx = this[kSendContext];
    safely(() => hook(ctx));
  }

  private emitEnd(): void {
    if (this[kAppFinished] !== null) this.runAppFinished();
    const listeners = this._endListeners;
    if (listeners === null) return;
    this._endListeners = null;
    for (const l of listeners) safely(l);
  }
}

/**
 * The body's length in bytes, or a bound that already settles it against `atLeast`: a string's UTF-16
 * length when that is at least `atLeast` (UTF-8 takes one to three bytes per unit) or when three times it is
 * less; only a string in between is encoded to count.
 */
export function byteLengthAtLeast(body: ResponseChunk, atLeast: number): number {
  if (typeof body !== 'string') return body.byteLength;
  if (body.length >= atLeast || body.length * 3 < atLeast) return body.length;
  return Buffer.byteLength(body, 'utf8');
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    process.emitWarning(`rest.uws: a response listener threw: ${(err as Error)?.message ?? err}`);
  }
}
