import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';
import type { Received } from './session-harness';
import { connect, type StreamClient } from './ws-client';

/** Answer of a session request (status and JSON body). */
export interface SessionAnswer {
  readonly status: number;
  readonly body: Record<string, string>;
}

/** `POST /v3/voice/realtime` against a running server. */
export async function requestSession(
  baseUrl: string,
  key: string,
  body: Record<string, unknown>,
): Promise<SessionAnswer> {
  const response = await fetch(`${baseUrl}/v3/voice/realtime`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** `GET /v3/voice/realtime?token=` (reconnection) against a running server. */
export async function requestReconnection(baseUrl: string, key: string, token: string): Promise<SessionAnswer> {
  const response = await fetch(`${baseUrl}/v3/voice/realtime?token=${encodeURIComponent(token)}`, {
    headers: { authorization: `DeepL-Auth-Key ${key}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The streaming address of a session answer, with its token. */
export function streamAddress(answer: SessionAnswer): string {
  if (answer.status !== 200)
    throw new Error(`session request refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return `${answer.body.streaming_url}?token=${encodeURIComponent(answer.body.token)}`;
}

/** A connected stream with its decoded messages, as a real client sees them. */
export class LiveStream {
  readonly messages: Received[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(
    readonly client: StreamClient,
    readonly format: 'json' | 'msgpack',
  ) {
    client.socket.on('message', (data: Buffer, isBinary: boolean) => {
      this.messages.push(isBinary ? (unpack(data) as Received) : (JSON.parse(data.toString('utf8')) as Received));
      for (const wake of this.waiters.splice(0)) wake();
    });
    void client.closed.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(url: string, format: 'json' | 'msgpack' = 'json'): Promise<LiveStream> {
    return new LiveStream(await connect(url), format);
  }

  get isOpen(): boolean {
    return this.client.socket.readyState === WebSocket.OPEN;
  }

  get closed(): Promise<{ code: number; reason: string }> {
    return this.client.closed;
  }

  /** Sends one client message in the session's encoding (nothing once the socket is closing). */
  send(message: Record<string, unknown>): void {
    if (!this.isOpen) return;
    if (this.format === 'msgpack') this.client.socket.send(pack(message));
    else {
      const chunk = (message as { source_media_chunk?: { data: Buffer } }).source_media_chunk;
      this.client.socket.send(
        JSON.stringify(chunk ? { source_media_chunk: { data: chunk.data.toString('base64') } } : message),
      );
    }
  }

  /** Streams `audio` in chunks of `chunkBytes` every `intervalMs` while the socket is open; `end` sends end_of_source_media. */
  async stream(audio: Buffer, chunkBytes: number, intervalMs: number, end = true): Promise<void> {
    for (let offset = 0; offset < audio.length && this.isOpen; offset += chunkBytes) {
      this.send({ source_media_chunk: { data: audio.subarray(offset, offset + chunkBytes) } });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    if (end) this.send({ end_of_source_media: {} });
  }

  /** Resolves with the first message (already received or coming) that `match` accepts; fails on close or timeout. */
  async waitFor(what: string, match: (message: Received) => boolean, timeoutMs = 30_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (!this.isOpen)
        throw new Error(
          `the stream closed before ${what}; last messages: ${JSON.stringify(this.messages.slice(-2)).slice(0, 400)}`,
        );
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  kinds(): string[] {
    return this.messages.map((message) => Object.keys(message)[0]);
  }

  errors(): Array<Record<string, any>> {
    return this.messages.filter((message) => message.error).map((message) => message.error);
  }

  /** Concatenated concluded source text. */
  sourceText(): string {
    return this.messages
      .flatMap((message) => message.source_transcript_update?.concluded ?? [])
      .map((segment: { text: string }) => segment.text)
      .join('');
  }

  /** Concatenated concluded text of one target language. */
  targetText(language: string): string {
    return this.messages
      .filter((message) => message.target_transcript_update?.language === language)
      .flatMap((message) => message.target_transcript_update.concluded)
      .map((segment: { text: string }) => segment.text)
      .join('');
  }

  mediaChunks(language: string): Array<Record<string, any>> {
    return this.messages
      .filter((message) => message.target_media_chunk?.language === language)
      .map((message) => message.target_media_chunk);
  }

  close(): void {
    this.client.socket.terminate();
  }
}
