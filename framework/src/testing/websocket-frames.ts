import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';

/** WebSocket opcodes (RFC 6455, 5.2). */
export const Opcode = {
  Continuation: 0x0,
  Text: 0x1,
  Binary: 0x2,
  Close: 0x8,
  Ping: 0x9,
  Pong: 0xa,
} as const;
export type Opcode = (typeof Opcode)[keyof typeof Opcode];

/** One whole message or control frame, fragments joined. */
export interface Frame {
  opcode: Opcode;
  payload: Buffer;
}

/** A client's frame: final, masked with a fresh key, as RFC 6455 requires of every frame a client sends. */
export function clientFrame(opcode: Opcode, payload: Buffer): Buffer {
  const length = payload.length;
  const sizeBytes = length < 126 ? 0 : length < 65536 ? 2 : 8;
  const head = Buffer.alloc(2 + sizeBytes + 4);
  head[0] = 0x80 | opcode;
  if (sizeBytes === 0) head[1] = 0x80 | length;
  else if (sizeBytes === 2) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(head, 2 + sizeBytes);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([head, masked]);
}

/** The payload of a close frame: the code, then the reason in UTF-8. */
export function closePayload(code: number, reason: string): Buffer {
  const out = Buffer.alloc(2 + Buffer.byteLength(reason));
  out.writeUInt16BE(code, 0);
  out.write(reason, 2);
  return out;
}

/** Cuts the bytes a server sends into frames; a fragmented message comes out whole once its last fragment arrived. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentedOpcode: Opcode | undefined;

  /** The frames completed by this chunk. */
  push(chunk: Buffer): Frame[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      const frame = this.readOne();
      if (frame === undefined) return frames;
      if (frame.opcode >= Opcode.Close) frames.push({ opcode: frame.opcode, payload: frame.payload });
      else if (frame.opcode !== Opcode.Continuation && frame.fin) frames.push(frame);
      else {
        if (frame.opcode !== Opcode.Continuation) this.fragmentedOpcode = frame.opcode;
        this.fragments.push(frame.payload);
        if (frame.fin) {
          frames.push({ opcode: this.fragmentedOpcode!, payload: Buffer.concat(this.fragments) });
          this.fragments = [];
        }
      }
    }
  }

  private readOne(): (Frame & { fin: boolean }) | undefined {
    const b = this.buffered;
    if (b.length < 2) return undefined;
    let length = b[1]! & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      offset = 10;
    }
    const masked = (b[1]! & 0x80) !== 0;
    const mask = masked ? b.subarray(offset, offset + 4) : undefined;
    if (masked) offset += 4;
    if (b.length < offset + length) return undefined;
    const payload = Buffer.from(b.subarray(offset, offset + length));
    if (mask !== undefined) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i & 3]!;
    this.buffered = b.subarray(offset + length);
    return { fin: (b[0]! & 0x80) !== 0, opcode: (b[0]! & 0x0f) as Opcode, payload };
  }
}
