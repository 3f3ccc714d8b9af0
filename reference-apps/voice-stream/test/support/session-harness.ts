import { pack, unpack } from 'msgpackr';
import type { VoiceEngines } from '../../src/engines/voice-engines';
import { capabilitiesOf } from '../../src/engines/voice-engines';
import type { MessageFormat } from '../../src/domain/protocol/message-codec';
import { ManualScheduler } from '../../src/domain/session/scheduler';
import { sessionConfigOf, type SessionRequest } from '../../src/domain/session/session-request';
import { VoiceSession, type VoiceSessionOptions } from '../../src/domain/session/voice-session';

/** A server message as a client decodes it from the wire (JSON: base64 strings; MessagePack: bytes). */
export type Received = Record<string, Record<string, any>>;

export interface Segment {
  text: string;
  start_time: number;
  end_time: number;
  language?: string;
}

export interface OpenSession {
  readonly session: VoiceSession;
  readonly format: MessageFormat;
  /** Every message the client received, decoded from the frames the server produced. */
  readonly received: Received[];
  /** Frame types the server used (true = BINARY). */
  readonly frameTypes: boolean[];
  closed: boolean;
}

/** Makes the config of a (valid) `request` as the REST endpoint does and opens a session whose frames are decoded as a client would. */
export function openSession(
  engines: VoiceEngines,
  request: Record<string, unknown>,
  options: VoiceSessionOptions = {},
): OpenSession {
  const result = sessionConfigOf(request as unknown as SessionRequest, capabilitiesOf(engines));
  if ('error' in result) throw new Error(`session request refused: ${result.error.code}: ${result.error.message}`);
  const received: Received[] = [];
  const frameTypes: boolean[] = [];
  const state = { closed: false };
  const opened: OpenSession = {
    session: undefined as unknown as VoiceSession,
    format: result.config.messageFormat,
    received,
    frameTypes,
    get closed() {
      return state.closed;
    },
  };
  const session = new VoiceSession(
    result.config,
    engines,
    {
      send: (message) => {
        const frame = session.codec.encode(message);
        frameTypes.push(frame.binary);
        received.push(
          frame.binary ? (unpack(frame.data as Buffer) as Received) : (JSON.parse(frame.data as string) as Received),
        );
      },
      close: () => {
        state.closed = true;
      },
    },
    options,
  );
  (opened as { session: VoiceSession }).session = session;
  return opened;
}

/** A client frame, encoded as real clients do (JSON text with base64, or msgpackr maps in binary). */
export function clientFrame(format: MessageFormat, message: unknown): { data: string | Buffer; binary: boolean } {
  if (format === 'msgpack') return { data: pack(message), binary: true };
  return {
    data: JSON.stringify(message, (_key, value: unknown) =>
      value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer'
        ? Buffer.from((value as { data: number[] }).data).toString('base64')
        : value,
    ),
    binary: false,
  };
}

export function sendChunk(open: OpenSession, data: Buffer): void {
  const frame = clientFrame(open.format, { source_media_chunk: { data } });
  open.session.receiveFrame(frame.data, frame.binary);
}

export function sendEnd(open: OpenSession): void {
  const frame = clientFrame(open.format, { end_of_source_media: {} });
  open.session.receiveFrame(frame.data, frame.binary);
}

export interface StreamOptions {
  /** Bytes per chunk. */
  readonly chunkBytes: number;
  /** Audio per chunk in ms (advances the manual clock, or the real wait at `speed`). */
  readonly chunkMs: number;
  /** With a ManualScheduler the clock is advanced; otherwise real time is waited at `speed` x real time. */
  readonly scheduler?: ManualScheduler;
  readonly speed?: number;
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Streams `bytes` in chunks, then end_of_source_media, and waits for the session to end. */
export async function streamAll(open: OpenSession, bytes: Buffer, options: StreamOptions): Promise<void> {
  for (let offset = 0; offset < bytes.length && open.session.state === 'streaming'; offset += options.chunkBytes) {
    sendChunk(open, bytes.subarray(offset, offset + options.chunkBytes));
    if (options.scheduler) {
      options.scheduler.advance(options.chunkMs);
      // Let the engines' pipes and workers run between chunks.
      await pause(2);
    } else {
      await pause(options.chunkMs / (options.speed ?? 1));
    }
  }
  if (open.session.state === 'streaming') sendEnd(open);
  await open.session.done;
}

export function kinds(received: Received[]): string[] {
  return received.map((message) => Object.keys(message)[0]);
}

export function sourceConcluded(received: Received[]): Segment[] {
  return received
    .filter((message) => message.source_transcript_update)
    .flatMap((message) => message.source_transcript_update.concluded as Segment[]);
}

export function targetConcluded(received: Received[], language: string): Segment[] {
  return received
    .filter((message) => message.target_transcript_update?.language === language)
    .flatMap((message) => message.target_transcript_update.concluded as Segment[]);
}

export function mediaChunks(received: Received[], language: string): Record<string, any>[] {
  return received
    .filter((message) => message.target_media_chunk?.language === language)
    .map((message) => message.target_media_chunk);
}

/** Media data elements as bytes, whichever encoding carried them. */
export function mediaElements(chunk: Record<string, any>): Buffer[] {
  return (chunk.data as (string | Uint8Array)[]).map((element) =>
    typeof element === 'string' ? Buffer.from(element, 'base64') : Buffer.from(element),
  );
}

export function errorOf(received: Received[]): Record<string, any> | undefined {
  return received.find((message) => message.error)?.error;
}

export function text(segments: Segment[]): string {
  return segments.map((segment) => segment.text).join('');
}
