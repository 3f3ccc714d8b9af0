import { Produces } from '../decorators/routing';
import type { HttpResponseWriter } from '../context/contracts';
import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import { mediaEssence } from './media-type';
import { kPutContentType } from '../http/internal';

const JSON_CONTENT_TYPE = 'application/json';
const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** application/json: JSON.stringify's text of the result (V8's own writer: a writer compiled per class was measured slower, in CPU and memory). */
@Produces('application/json')
export class JsonResponseWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    // Added only when the response has no Content-Type yet (the route's negotiated one is usually there).
    response[kPutContentType](JSON_CONTENT_TYPE);
    response.end(data === undefined ? 'null' : JSON.stringify(data));
  }
}

/** text/plain: the result's string form; bytes as they are. */
@Produces('text/plain')
export class PlainResponseWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    response[kPutContentType](TEXT_CONTENT_TYPE);
    response.end(isBytes(data) ? data : data === undefined || data === null ? '' : String(data));
  }
}

/**
 * The general-purpose writer: by the Content-Type chosen for the response, else by the value
 * (bytes as octet-stream, strings as text, anything else as JSON).
 */
export class GenericResponseWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    const contentType = response.getHeader('content-type');
    if (isBytes(data)) {
      if (contentType === undefined) response[kPutContentType]('application/octet-stream');
      response.end(data);
      return;
    }
    const essence = contentType === undefined ? undefined : mediaEssence(contentType);
    if (essence === undefined) {
      if (typeof data === 'string') {
        response[kPutContentType](TEXT_CONTENT_TYPE);
        response.end(data);
      } else {
        response[kPutContentType](JSON_CONTENT_TYPE);
        response.end(JSON.stringify(data ?? null));
      }
      return;
    }
    if (essence === 'application/json' || essence.endsWith('+json')) response.end(JSON.stringify(data ?? null));
    else
      response.end(
        data === undefined || data === null
          ? ''
          : typeof data === 'string'
            ? data
            : typeof data === 'object'
              ? JSON.stringify(data)
              : String(data),
      );
  }
}

function isBytes(data: unknown): data is Buffer | Uint8Array | ArrayBuffer {
  return data instanceof Uint8Array || data instanceof ArrayBuffer;
}
