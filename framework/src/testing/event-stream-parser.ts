import { Buffer } from 'node:buffer';

/** One event of a `text/event-stream`, as a browser's EventSource dispatches it. */
export interface ReceivedEvent {
  /** The event type: its `event:` field, `message` when it has none. */
  event: string;
  /** Its `data:` lines, joined with line feeds. */
  data: string;
  /** Its `id:` field, when it has one. */
  id?: string;
  /** Its `retry:` field (milliseconds), when it has one. */
  retry?: number;
  /** `data` parsed as JSON (throws when it is not JSON). */
  json<T = any>(): T;
}

/**
 * Reads a `text/event-stream` body chunk by chunk with the HTML standard's rules: lines end with CR LF, LF or CR;
 * a blank line dispatches the event; comment lines (heartbeats) and blocks without data dispatch nothing.
 */
export class EventStreamParser {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private data: string[] = [];
  private type = '';
  private id: string | undefined;
  private retry: number | undefined;
  private first = true;

  /** The events completed by this chunk. */
  push(chunk: Buffer | Uint8Array): ReceivedEvent[] {
    let text = this.pending + this.decoder.decode(chunk, { stream: true });
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: ReceivedEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CR at the end of the chunk may be the first half of CR LF: wait for the next chunk.
      if (c === '\r' && i === text.length - 1) break;
      const event = this.line(text.slice(start, i));
      if (event !== undefined) events.push(event);
      if (c === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.pending = text.slice(start);
    return events;
  }

  private line(line: string): ReceivedEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  private dispatch(): ReceivedEvent | undefined {
    const { data, type, id, retry } = this;
    this.data = [];
    this.type = '';
    this.id = undefined;
    this.retry = undefined;
    if (data.length === 0) return undefined;
    const text = data.join('\n');
    return {
      event: type === '' ? 'message' : type,
      data: text,
      ...(id !== undefined ? { id } : {}),
      ...(retry !== undefined ? { retry } : {}),
      json: () => JSON.parse(text),
    };
  }
}
