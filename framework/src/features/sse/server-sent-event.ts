import { Buffer } from 'node:buffer';
import { errors } from '../../plugin';

/** The fields of one server-sent event (the HTML standard's `text/event-stream`). */
export interface ServerSentEventFields {
  /** The payload: a string as it is (several lines become several `data:` lines), anything else as JSON. */
  data?: unknown;
  /** The event type (`event:`): the browser's `addEventListener(type)` receives it; default `message`. */
  event?: string;
  /** The event id (`id:`): the browser sends the last one back as `Last-Event-ID` when it reconnects. */
  id?: string | number;
  /** How long the browser waits before reconnecting, in milliseconds (`retry:`). */
  retry?: number;
  /** A comment line (`: ...`), ignored by browsers. */
  comment?: string;
}

const LINE_BREAK = /[\r\n]/;

/**
 * One event of an event stream. An event stream yields these, or plain values: a string is sent as the
 * event's data, any other value as JSON. The fields are checked here: an id, type or comment with a line
 * break (or an id with NUL) would let data forge events of its own, so it is refused with a TypeError.
 */
export class ServerSentEvent implements ServerSentEventFields {
  readonly data?: unknown;
  readonly event?: string;
  readonly id?: string | number;
  readonly retry?: number;
  readonly comment?: string;

  constructor(fields: ServerSentEventFields) {
    if (fields === null || typeof fields !== 'object')
      throw errors.RU_ERR_SSE_EVENT('rest.uws: ServerSentEvent takes { data, event, id, retry, comment }');
    const { data, event, id, retry, comment } = fields;
    if (event !== undefined && (typeof event !== 'string' || event.length === 0 || LINE_BREAK.test(event)))
      throw errors.RU_ERR_SSE_EVENT(`rest.uws: an event type must be a non-empty line, got ${JSON.stringify(event)}`);
    if (
      id !== undefined &&
      (typeof id === 'number'
        ? !Number.isFinite(id)
        : typeof id !== 'string' || LINE_BREAK.test(id) || id.includes('\0'))
    ) {
      throw errors.RU_ERR_SSE_EVENT(
        `rest.uws: an event id must be a number or a line without NUL, got ${JSON.stringify(id)}`,
      );
    }
    if (retry !== undefined && !(Number.isInteger(retry) && retry >= 0))
      throw errors.RU_ERR_SSE_EVENT(`rest.uws: retry must be a whole number of milliseconds, got ${retry}`);
    if (comment !== undefined && (typeof comment !== 'string' || LINE_BREAK.test(comment)))
      throw errors.RU_ERR_SSE_EVENT(`rest.uws: a comment must be one line, got ${JSON.stringify(comment)}`);
    this.data = data;
    this.event = event;
    this.id = id;
    this.retry = retry;
    this.comment = comment;
  }
}

/** The wire form of a value an event stream yields (an event, or data). */
export function formatEvent(value: unknown): string {
  if (!(value instanceof ServerSentEvent)) return dataLines(value) + '\n';
  let out = '';
  if (value.comment !== undefined) out += `: ${value.comment}\n`;
  if (value.event !== undefined) out += `event: ${value.event}\n`;
  if (value.id !== undefined) out += `id: ${value.id}\n`;
  if (value.retry !== undefined) out += `retry: ${value.retry}\n`;
  if (value.data !== undefined) out += dataLines(value.data);
  return out + '\n';
}

/** `data:` lines: one per line of a string (any line break), JSON for other values (JSON has no raw line breaks). */
function dataLines(data: unknown): string {
  const text =
    typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : (JSON.stringify(data) ?? 'null');
  let out = '';
  for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out;
}
