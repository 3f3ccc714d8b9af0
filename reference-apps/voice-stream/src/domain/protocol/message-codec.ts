import { Packr, Unpackr } from 'msgpackr';
import { CLIENT_MESSAGE_KINDS, type ClientMessage, type ServerMessage } from './messages';
import { SessionError } from './protocol-violation';
import { Reasons } from './reason-codes';

export type MessageFormat = 'json' | 'msgpack';

/** A frame to send: TEXT for JSON, BINARY for MessagePack. */
export interface EncodedFrame {
  readonly data: string | Buffer;
  readonly binary: boolean;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// Maps only: records/structures would be the array-based encoding the API forbids.
const packer = new Packr({ useRecords: false, variableMapSize: true });
// Maps decode to Map so key types stay visible; records would decode to plain objects and are refused.
const unpacker = new Unpackr({ useRecords: false, mapsAsObjects: false });

/** The request type reported in errors: the message kind when it can be told, else "unknown". */
function requestTypeOf(kind: unknown): string {
  return typeof kind === 'string' && kind.length > 0 && kind.length <= 64 ? kind : 'unknown';
}

/**
 * Encodes server messages and decodes client messages in the session's format: JSON in TEXT frames with
 * base64 audio, or MessagePack (string-keyed maps) in BINARY frames with raw bytes.
 */
export class MessageCodec {
  constructor(readonly format: MessageFormat) {}

  encode(message: ServerMessage): EncodedFrame {
    if (this.format === 'msgpack') return { data: packer.pack(message), binary: true };
    if ('target_media_chunk' in message) {
      const chunk = message.target_media_chunk;
      return {
        data: JSON.stringify({
          target_media_chunk: { ...chunk, data: chunk.data.map((unit) => unit.toString('base64')) },
        }),
        binary: false,
      };
    }
    return { data: JSON.stringify(message), binary: false };
  }

  /** Decodes one frame; throws SessionError naming exactly what is wrong. */
  decode(frame: Buffer | ArrayBuffer | string, binary: boolean): ClientMessage {
    const bytes =
      typeof frame === 'string' ? Buffer.from(frame, 'utf8') : Buffer.isBuffer(frame) ? frame : Buffer.from(frame);
    if (this.format === 'json') {
      if (binary)
        throw new SessionError(
          Reasons.wrongFrameType,
          'unknown',
          'This session uses JSON: send TEXT frames, not BINARY frames',
        );
      return this.decodeJson(bytes.toString('utf8'));
    }
    if (!binary)
      throw new SessionError(
        Reasons.wrongFrameType,
        'unknown',
        'This session uses MessagePack: send BINARY frames, not TEXT frames',
      );
    return this.decodeMessagePack(bytes);
  }

  private decodeJson(text: string): ClientMessage {
    // JSON.parse of a megabyte of nested brackets blocks the event loop for most of a second; refuse it unread.
    if (nestingExceeds(text, MAX_NESTING)) {
      throw new SessionError(
        Reasons.invalidEnvelope,
        'unknown',
        `The message is nested deeper than ${MAX_NESTING} levels; a client message has 2`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new SessionError(
        Reasons.invalidMessage,
        'unknown',
        `The frame is not valid JSON: ${(error as Error).message}`,
      );
    }
    const [kind, payload] = envelope(value);
    if (kind === 'source_media_chunk') {
      const data = payload.data;
      if (typeof data !== 'string')
        throw new SessionError(Reasons.invalidAudioField, kind, 'source_media_chunk.data must be a base64 string');
      if (!BASE64.test(data))
        throw new SessionError(Reasons.invalidAudioField, kind, 'source_media_chunk.data is not valid base64');
      return { source_media_chunk: { data: nonEmpty(Buffer.from(data, 'base64')) } };
    }
    return { end_of_source_media: {} };
  }

  private decodeMessagePack(bytes: Buffer): ClientMessage {
    let value: unknown;
    try {
      value = unpacker.unpack(bytes);
    } catch (error) {
      throw new SessionError(
        Reasons.invalidMessage,
        'unknown',
        `The frame is not valid MessagePack: ${(error as Error).message}`,
      );
    }
    const [kind, payload] = envelope(toPlainMaps(value));
    if (kind === 'source_media_chunk') {
      const data = payload.data;
      if (!(data instanceof Uint8Array)) {
        throw new SessionError(
          Reasons.invalidAudioField,
          kind,
          'source_media_chunk.data must be MessagePack binary (bin 8/16/32), not ' + describe(data),
        );
      }
      return { source_media_chunk: { data: nonEmpty(Buffer.from(data.buffer, data.byteOffset, data.byteLength)) } };
    }
    return { end_of_source_media: {} };
  }
}

/** Checks the one-key envelope and the kind; returns the kind and its payload object. */
function envelope(value: unknown): [string, Record<string, unknown>] {
  if (!isRecord(value))
    throw new SessionError(
      Reasons.invalidEnvelope,
      'unknown',
      `A message must be an object with one key, got ${describe(value)}`,
    );
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    throw new SessionError(
      Reasons.invalidEnvelope,
      requestTypeOf(keys[0]),
      `A message must have exactly one key (its kind), got ${keys.length}`,
    );
  }
  const kind = keys[0];
  if (!(CLIENT_MESSAGE_KINDS as readonly string[]).includes(kind)) {
    throw new SessionError(
      Reasons.unknownMessageKind,
      requestTypeOf(kind),
      `Unknown message kind "${kind.slice(0, 64)}"; a client sends source_media_chunk or end_of_source_media`,
    );
  }
  const payload = value[kind];
  if (!isRecord(payload))
    throw new SessionError(
      Reasons.invalidEnvelope,
      kind,
      `The payload of ${kind} must be an object, got ${describe(payload)}`,
    );
  return [kind, payload];
}

/**
 * Converts decoded MessagePack maps into plain objects, refusing what the API forbids: arrays (array-based
 * encoding), msgpackr records (decoded as plain objects), extension types, and keys that are not strings.
 */
function toPlainMaps(value: unknown, depth = 1): unknown {
  if (value instanceof Map) {
    if (depth > MAX_NESTING)
      throw new SessionError(
        Reasons.invalidEnvelope,
        'unknown',
        `The message is nested deeper than ${MAX_NESTING} levels; a client message has 2`,
      );
    const object: Record<string, unknown> = Object.create(null);
    for (const [key, entry] of value) {
      if (typeof key !== 'string') {
        throw new SessionError(
          Reasons.nonMapMessagePack,
          'unknown',
          `MessagePack map keys must be strings, got ${describe(key)} key ${String(key).slice(0, 32)}`,
        );
      }
      object[key] = toPlainMaps(entry, depth + 1);
    }
    return object;
  }
  if (Array.isArray(value))
    throw new SessionError(
      Reasons.nonMapMessagePack,
      'unknown',
      'Array-based MessagePack encoding is not supported: send maps with string keys',
    );
  if (value instanceof Uint8Array || value === null || ['string', 'number', 'boolean'].includes(typeof value))
    return value;
  throw new SessionError(
    Reasons.nonMapMessagePack,
    'unknown',
    `Unsupported MessagePack value (${describe(value)}): records, structures and extension types are not accepted`,
  );
}

/** Objects and arrays a client message may nest (a valid one nests 2: the envelope and its payload). */
const MAX_NESTING = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text opens more than `limit` objects/arrays inside each other (brackets in strings ignored). */
function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function nonEmpty(data: Buffer): Buffer {
  if (data.length === 0)
    throw new SessionError(Reasons.invalidAudioField, 'source_media_chunk', 'source_media_chunk.data is empty');
  return data;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'binary';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
