import * as http from 'node:http';

/** One event block as received: its fields (`data` lines joined with \n), or a comment block. */
export interface ReceivedEvent {
  event?: string;
  id?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** A streaming GET read block by block, as a browser's EventSource would parse it (any line break; comments kept). */
export interface EventClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every block received so far. */
  blocks: ReceivedEvent[];
  /** Resolves once `test(blocks)` holds (rejects if the stream ends first). */
  until(test: (blocks: ReceivedEvent[]) => boolean): Promise<ReceivedEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  pause(): void;
  resume(): void;
  /** Leaves: the connection is destroyed. */
  close(): void;
}

export function parseBlock(block: string): ReceivedEvent {
  const out: ReceivedEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      out.comment = (out.comment === undefined ? '' : out.comment + '\n') + line.slice(1).trimStart();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') out.data = out.data === undefined ? value : `${out.data}\n${value}`;
    else if (field === 'event' || field === 'id' || field === 'retry') out[field] = value;
  }
  return out;
}

export function openEvents(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<EventClient> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: { Accept: 'text/event-stream', ...headers }, agent: false },
      (response) => {
        const blocks: ReceivedEvent[] = [];
        const waiters: Array<() => void> = [];
        let buffer = '';
        let done = false;
        const ended = new Promise<void>((resolveEnd) => {
          const finish = () => {
            done = true;
            for (const w of waiters.splice(0)) w();
            resolveEnd();
          };
          response.on('end', finish);
          response.on('close', finish);
          response.on('error', finish);
        });
        response.setEncoding('utf8');
        response.on('data', (text: string) => {
          // A browser ends a line at CR, LF or CRLF; a CR at the end may be the first half of a CRLF, so it waits.
          buffer += text;
          const trailingCr = buffer.endsWith('\r');
          buffer = buffer.slice(0, trailingCr ? -1 : undefined).replace(/\r\n?/g, '\n') + (trailingCr ? '\r' : '');
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            blocks.push(parseBlock(buffer.slice(0, at)));
            buffer = buffer.slice(at + 2);
          }
          for (const w of waiters.splice(0)) w();
        });
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          blocks,
          ended,
          until: (test) =>
            new Promise((resolveUntil, rejectUntil) => {
              const check = () => {
                if (test(blocks)) resolveUntil(blocks);
                else if (done)
                  rejectUntil(new Error(`the stream ended; received ${JSON.stringify(blocks).slice(0, 300)}`));
                else waiters.push(check);
              };
              check();
            }),
          pause: () => response.pause(),
          resume: () => response.resume(),
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', (err) => reject(err));
    request.end();
  });
}

/** The blocks that are events (not comments alone). */
export function eventsOf(blocks: ReceivedEvent[]): ReceivedEvent[] {
  return blocks.filter((b) => b.data !== undefined || b.event !== undefined || b.id !== undefined);
}
