/**
 * Raw uWebSockets.js: the ceiling. Hand-written routing, conversion, validation and streaming,
 * following the library's own rules (abort handler before going async, cork after going async; uWS's own
 * callbacks, the body's onData included, are corked already).
 */
import * as fs from 'node:fs';
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { findOrderProblem } from '../contract/order';
import {
  BENCH_USER,
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  MAX_BODY_BYTES,
  ME_PATH,
  ORDERS_PATH,
  PROFILE_VIEWED_EVENT,
  STATIC_FILE_NAME,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../contract/routes';
import { userFromAuthorization } from './support/bearer-tokens';
import { createProfileEvents } from './support/profile-events';
import { listenAndAnnounce, now, staticFilePath } from './support/server-environment';

const JSON_TYPE = 'application/json';

function sendJson(res: HttpResponse, status: string, body: unknown): void {
  res.writeStatus(status).writeHeader('Content-Type', JSON_TYPE).end(JSON.stringify(body));
}

function sendError(res: HttpResponse, status: string, message: string): void {
  sendJson(res, status, { error: message });
}

/**
 * Reads the whole body (up to MAX_BODY_BYTES), copying each chunk because uWS neuters it on return
 * (into Node's Buffer pool: allocating an ArrayBuffer per chunk costs five times more, about 1 µs).
 */
function readBody(res: HttpResponse, onBody: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, isLast) => {
    if (aborted) return;
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      aborted = true;
      sendError(res, '413 Payload Too Large', `body larger than ${MAX_BODY_BYTES} bytes`);
      return;
    }
    const copy = Buffer.allocUnsafe(chunk.byteLength);
    copy.set(new Uint8Array(chunk));
    chunks.push(copy);
    if (isLast) onBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
}

function postOrder(res: HttpResponse, req: HttpRequest): void {
  const contentType = req.getHeader('content-type');
  if (!contentType.startsWith(JSON_TYPE)) {
    sendError(res, '415 Unsupported Media Type', 'content-type must be application/json');
    return;
  }
  readBody(res, (body) => {
    let order: unknown;
    try {
      order = JSON.parse(body.toString('utf8'));
    } catch {
      sendError(res, '400 Bad Request', 'body is not valid JSON');
      return;
    }
    const problem = findOrderProblem(order);
    if (problem) sendError(res, '400 Bad Request', problem);
    else sendJson(res, '201 Created', order);
  });
}

/** Streams the file with tryEnd/onWritable backpressure, as uWebSockets.js's VideoStreamer example does. */
function streamFile(res: HttpResponse, filePath: string, totalSize: number): void {
  const stream = fs.createReadStream(filePath, { highWaterMark: 64 * 1024 });
  let done = false;
  res.onAborted(() => {
    done = true;
    stream.destroy();
  });
  res.writeHeader('Content-Type', 'application/octet-stream');
  stream.on('error', () => {
    if (done) return;
    done = true;
    res.cork(() => res.close());
  });
  stream.on('data', (data) => {
    if (done) return;
    const chunk = data as Buffer;
    res.cork(() => {
      const lastOffset = res.getWriteOffset();
      const [ok, finished] = res.tryEnd(chunk, totalSize);
      if (finished) {
        done = true;
        stream.destroy();
      } else if (!ok) {
        stream.pause();
        res.onWritable((offset) => {
          const [retryOk, retryFinished] = res.tryEnd(chunk.subarray(offset - lastOffset), totalSize);
          if (retryFinished) {
            done = true;
            stream.destroy();
          } else if (retryOk) {
            stream.resume();
          }
          return retryOk;
        });
      }
    });
  });
}

function main(): void {
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const filePath = staticFilePath();
  const app = uWS.App();

  app.get(HELLO_PATH, (res) => {
    sendJson(res, '200 OK', HELLO_BODY);
  });

  app.get('/users/:id', (res, req) => {
    const rawId = req.getParameter(0);
    const id = Number(rawId);
    if (!/^-?\d+$/.test(rawId) || !Number.isSafeInteger(id)) {
      sendError(res, '400 Bad Request', `id must be an integer, got "${rawId}"`);
      return;
    }
    const fields = req.getQuery('fields');
    sendJson(res, '200 OK', userResponse(id, fields ? fields.split(',') : []));
  });

  app.post(ORDERS_PATH, postOrder);

  app.get(`${STATIC_PREFIX}/${STATIC_FILE_NAME}`, (res) => {
    // The size is read per request, as a file server would, so a replaced file is served correctly.
    let size: number;
    try {
      size = fs.statSync(filePath).size;
    } catch {
      sendError(res, '404 Not Found', 'file not found');
      return;
    }
    streamFile(res, filePath, size);
  });

  app.get(ME_PATH, (res, req) => {
    const user = userFromAuthorization(req.getHeader('authorization'));
    if (!user) {
      res
        .writeStatus('401 Unauthorized')
        .writeHeader('WWW-Authenticate', 'Bearer')
        .writeHeader('Content-Type', JSON_TYPE);
      res.end(JSON.stringify({ error: 'missing or invalid Bearer token' }));
      return;
    }
    sendJson(res, '200 OK', BENCH_USER);
    events.emit(PROFILE_VIEWED_EVENT, user);
  });

  app.get(STATS_PATH, (res) => sendJson(res, '200 OK', stats));

  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app.get(`/r${index}/items/:id`, (res, req) =>
      sendJson(res, '200 OK', manyRouteResponse(index, req.getParameter(0))),
    );
  }

  app.any('/*', (res, req) =>
    sendError(res, '404 Not Found', `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`),
  );

  const bootMs = now() - startedAt;
  listenAndAnnounce(app, 'raw-uws', bootMs);
}

main();
