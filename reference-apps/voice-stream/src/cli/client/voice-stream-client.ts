import { pack, unpack } from 'msgpackr';
import WebSocket from 'ws';

export interface SessionRequestBody {
  readonly source_media_content_type: string;
  readonly message_format?: 'json' | 'msgpack';
  readonly target_languages?: string[];
  readonly target_media_languages?: string[];
  readonly target_media_content_type?: string;
  readonly target_media_voice?: 'male' | 'female';
  readonly [field: string]: unknown;
}

export interface StreamingSession {
  readonly streaming_url: string;
  readonly token: string;
  readonly session_id: string;
}

/** A server message as the client decodes it; audio in `target_media_chunk.data` is always bytes here. */
export type StreamMessage = Record<string, Record<string, any>>;

/** `POST /v3/voice/realtime` as a real client sends it; throws with the server's `{message, code}`. */
export async function requestSession(
  baseUrl: string,
  apiKey: string,
  body: SessionRequestBody,
): Promise<StreamingSession> {
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/v3/voice/realtime`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${apiKey}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, string>;
  if (!response.ok)
    throw new Error(`session request refused: ${response.status} ${answer.code ?? ''} ${answer.message ?? ''}`.trim());
  return answer as unknown as StreamingSession;
}

/**
 * One WebSocket stream: sends audio chunks in the session's encoding and hands every decoded server
 * message to `onMessage`. `finished` resolves with the close code.
 */
export class VoiceStreamConnection {
  readonly finished: Promise<{ code: number; reason: string }>;

  private constructor(
    private readonly socket: WebSocket,
    private readonly format: 'json' | 'msgpack',
  ) {
    this.finished = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(
    session: StreamingSession,
    format: 'json' | 'msgpack',
    onMessage: (message: StreamMessage) => void,
  ): Promise<VoiceStreamConnection> {
    const socket = new WebSocket(`${session.streaming_url}?token=${encodeURIComponent(session.token)}`);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const message = (isBinary ? unpack(data) : JSON.parse(data.toString('utf8'))) as StreamMessage;
      const chunk = message.target_media_chunk;
      if (chunk)
        chunk.data = (chunk.data as (string | Uint8Array)[]).map((element) =>
          typeof element === 'string' ? Buffer.from(element, 'base64') : Buffer.from(element),
        );
      onMessage(message);
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new VoiceStreamConnection(socket, format)));
      socket.once('unexpected-response', (_request, response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          reject(new Error(`stream refused: ${response.statusCode} ${Buffer.concat(parts).toString('utf8')}`)),
        );
      });
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  sendAudio(data: Buffer): void {
    this.send({ source_media_chunk: { data } });
  }

  endAudio(): void {
    this.send({ end_of_source_media: {} });
  }

  close(): void {
    this.socket.close(1000);
  }

  private send(message: Record<string, Record<string, unknown>>): void {
    if (!this.isOpen) return;
    if (this.format === 'msgpack') {
      this.socket.send(pack(message));
      return;
    }
    const chunk = message.source_media_chunk;
    this.socket.send(
      JSON.stringify(chunk ? { source_media_chunk: { data: (chunk.data as Buffer).toString('base64') } } : message),
    );
  }
}

/**
 * Sends PCM at `speed` x real time in chunks of `chunkMs`, then end_of_source_media; resolves with the
 * close code. Chunks follow a fixed schedule from the start, so timer drift does not accumulate.
 */
export async function streamPcm(
  connection: VoiceStreamConnection,
  pcm: Buffer,
  sampleRate: number,
  chunkMs = 100,
  speed = 1,
): Promise<{ code: number; reason: string }> {
  const chunkBytes = Math.round((sampleRate * chunkMs) / 1000) * 2;
  const start = performance.now();
  for (let offset = 0, index = 0; offset < pcm.length && connection.isOpen; offset += chunkBytes, index += 1) {
    const due = start + (index * chunkMs) / speed;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    connection.sendAudio(pcm.subarray(offset, offset + chunkBytes));
  }
  connection.endAudio();
  return connection.finished;
}
