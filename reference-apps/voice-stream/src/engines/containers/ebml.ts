import { MalformedMediaError } from './media-unit';

/** Matroska/WebM element IDs this project reads (IDs keep their length marker bits, as in the spec). */
export const EbmlId = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Cluster: 0x1f43b675,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  CodecID: 0x86,
  CodecDelay: 0x56aa,
  Audio: 0xe1,
  SamplingFrequency: 0xb5,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
} as const;

export interface EbmlElementHeader {
  readonly id: number;
  /** Size of the element's data; `undefined` for the "unknown size" (all ones) marker. */
  readonly size: number | undefined;
  /** Length of the ID and size fields together. */
  readonly headerLength: number;
}

function vintLength(first: number, maxLength: number): number {
  for (let length = 1; length <= maxLength; length += 1) {
    if (first & (0x80 >> (length - 1))) return length;
  }
  throw new MalformedMediaError('invalid EBML variable-length integer');
}

/** Reads an element header at `offset`; `undefined` when the bytes are not all there yet. */
export function readElementHeader(bytes: Uint8Array, offset: number): EbmlElementHeader | undefined {
  if (offset >= bytes.length) return undefined;
  const idLength = vintLength(bytes[offset], 4);
  if (offset + idLength >= bytes.length) return undefined;
  let id = 0;
  for (let index = 0; index < idLength; index += 1) id = id * 256 + bytes[offset + index];
  const sizeOffset = offset + idLength;
  const sizeLength = vintLength(bytes[sizeOffset], 8);
  if (sizeOffset + sizeLength > bytes.length) return undefined;
  let size = bytes[sizeOffset] & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let index = 1; index < sizeLength; index += 1) {
    const byte = bytes[sizeOffset + index];
    size = size * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { id, size: allOnes ? undefined : size, headerLength: idLength + sizeLength };
}

export interface EbmlChild {
  readonly id: number;
  readonly data: Buffer;
}

/** Lists the (known-size) children inside an element's data. */
export function readChildren(data: Buffer): EbmlChild[] {
  const children: EbmlChild[] = [];
  let offset = 0;
  while (offset < data.length) {
    const header = readElementHeader(data, offset);
    if (!header || header.size === undefined)
      throw new MalformedMediaError('truncated or unknown-size EBML child element');
    const start = offset + header.headerLength;
    const end = start + header.size;
    if (end > data.length) throw new MalformedMediaError('EBML child element overruns its parent');
    children.push({ id: header.id, data: data.subarray(start, end) });
    offset = end;
  }
  return children;
}

export function readUnsigned(data: Buffer): number {
  let value = 0;
  for (const byte of data) value = value * 256 + byte;
  return value;
}

export function readFloat(data: Buffer): number {
  if (data.length === 4) return data.readFloatBE(0);
  if (data.length === 8) return data.readDoubleBE(0);
  throw new MalformedMediaError('EBML float of unexpected length');
}

/** Reads a Matroska track number (an EBML size-style vint) and returns it with its length. */
export function readTrackNumber(data: Buffer): { value: number; length: number } {
  const length = vintLength(data[0], 8);
  let value = data[0] & (0xff >> length);
  for (let index = 1; index < length; index += 1) value = value * 256 + data[index];
  return { value, length };
}
