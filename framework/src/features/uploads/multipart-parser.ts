import { Buffer } from 'node:buffer';
import { BadRequestException, errors } from '../../plugin';

/** What the parser reports, part by part, as the body streams in. */
export interface MultipartEvents {
  /** A part starts; `headerBlock` is its raw header lines (without the blank line). */
  partBegin(headerBlock: Buffer): void;
  /** Bytes of the current part's content; the buffer may be kept (it is never reused). */
  partData(data: Buffer): void;
  partEnd(): void;
}

const CR = 13;
const DASH = 45;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

type State = 'preamble' | 'after-boundary' | 'headers' | 'body' | 'done';

/**
 * A streaming multipart/form-data parser (RFC 7578 / RFC 2046): feed it chunks as they arrive, it
 * calls back per part and keeps only what may be the start of a boundary (at most the boundary's
 * length) or an unfinished header block between chunks. Malformed input throws 400.
 */
export class MultipartParser {
  private readonly delimiter: Buffer;
  private state: State = 'preamble';
  /** Bytes of the previous chunk still to look at. Starts with the CRLF the first boundary lacks. */
  private carry: Buffer = CRLF;

  constructor(
    boundary: string,
    private readonly events: MultipartEvents,
    private readonly maxHeaderSize = 16 * 1024,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** The closing boundary was seen: anything after it is ignored. */
  get finished(): boolean {
    return this.state === 'done';
  }

  write(chunk: Buffer): void {
    if (this.state === 'done' || chunk.length === 0) return;
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      if (this.state === 'preamble' || this.state === 'body') {
        const at = buf.indexOf(this.delimiter, pos);
        if (at >= 0) {
          if (this.state === 'body') {
            if (at > pos) this.events.partData(buf.subarray(pos, at));
            this.events.partEnd();
          }
          pos = at + this.delimiter.length;
          this.state = 'after-boundary';
          continue;
        }
        // Keep only a tail that could be the start of the next delimiter.
        const keep = possibleDelimiterStart(buf, Math.max(pos, buf.length - this.delimiter.length + 1));
        if (this.state === 'body' && keep > pos) this.events.partData(buf.subarray(pos, keep));
        pos = keep;
        break;
      }
      if (this.state === 'after-boundary') {
        // Transport padding (spaces, tabs) may follow a boundary, then CRLF, or "--" for the last one.
        while (pos < buf.length && (buf[pos] === 32 || buf[pos] === 9)) pos++;
        if (buf.length - pos < 2) break;
        if (buf[pos] === DASH && buf[pos + 1] === DASH) {
          this.state = 'done';
          pos = buf.length;
          break;
        }
        if (buf[pos] !== CR || buf[pos + 1] !== 10) throw malformed('a boundary is not followed by a line break');
        pos += 2;
        this.state = 'headers';
        continue;
      }
      if (this.state === 'headers') {
        if (buf.length - pos >= 2 && buf[pos] === CR && buf[pos + 1] === 10) {
          // A part without headers: straight to its content.
          this.events.partBegin(buf.subarray(pos, pos));
          pos += 2;
          this.state = 'body';
          continue;
        }
        const end = buf.indexOf(HEADER_END, pos);
        if (end < 0) {
          if (buf.length - pos > this.maxHeaderSize)
            throw malformed(`a part's headers exceed ${this.maxHeaderSize} bytes`);
          break;
        }
        if (end - pos > this.maxHeaderSize) throw malformed(`a part's headers exceed ${this.maxHeaderSize} bytes`);
        this.events.partBegin(buf.subarray(pos, end));
        pos = end + HEADER_END.length;
        this.state = 'body';
        continue;
      }
      break; // done
    }
    // Copy the carried tail: a view would pin the whole chunk in memory.
    this.carry = pos < buf.length && this.state !== 'done' ? Buffer.from(buf.subarray(pos)) : EMPTY;
  }

  /** The body ended: it must have ended with the closing boundary. */
  end(): void {
    if (this.state !== 'done') throw malformed('the body ended before the closing boundary');
  }
}

const EMPTY = Buffer.alloc(0);

/** First index at or after `from` where a CR starts a possible delimiter; buf.length when none. */
function possibleDelimiterStart(buf: Buffer, from: number): number {
  const at = buf.indexOf(CR, from);
  return at < 0 ? buf.length : at;
}

export function malformed(why: string): BadRequestException {
  return errors.RU_ERR_MULTIPART(`Malformed multipart/form-data body: ${why}`);
}

/** The boundary parameter of a multipart Content-Type, or undefined when absent or invalid (1-70 characters, RFC 2046). */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  return m === null ? undefined : (m[1] ?? m[2]);
}
