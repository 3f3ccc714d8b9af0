import { MalformedMediaError } from './media-unit';

/** Number of samples in one FLAC frame, from its header (FLAC format, "FRAME_HEADER"). */
export function flacFrameBlockSize(frame: Uint8Array): number {
  if (frame.length < 5 || frame[0] !== 0xff || (frame[1] & 0xfe) !== 0xf8) {
    throw new MalformedMediaError('FLAC frame does not start with a frame sync code');
  }
  const code = frame[2] >> 4;
  if (code === 1) return 192;
  if (code >= 2 && code <= 5) return 576 << (code - 2);
  if (code >= 8) return 256 << (code - 8);
  if (code === 6 || code === 7) {
    // The block size follows the UTF-8-like coded frame/sample number.
    let offset = 4;
    const lead = frame[offset];
    let extra = 0;
    if (lead >= 0xfe) extra = 6;
    else if (lead >= 0xfc) extra = 5;
    else if (lead >= 0xf8) extra = 4;
    else if (lead >= 0xf0) extra = 3;
    else if (lead >= 0xe0) extra = 2;
    else if (lead >= 0xc0) extra = 1;
    offset += 1 + extra;
    if (code === 6) {
      if (frame.length <= offset) throw new MalformedMediaError('truncated FLAC frame header');
      return frame[offset] + 1;
    }
    if (frame.length <= offset + 1) throw new MalformedMediaError('truncated FLAC frame header');
    return ((frame[offset] << 8) | frame[offset + 1]) + 1;
  }
  throw new MalformedMediaError(`reserved FLAC block size code ${code}`);
}

/** Sample rate stored in a FLAC STREAMINFO block body (34 bytes, without the 4-byte block header). */
export function streamInfoSampleRate(streamInfo: Uint8Array): number {
  if (streamInfo.length < 18) throw new MalformedMediaError('truncated FLAC STREAMINFO');
  return (streamInfo[10] << 12) | (streamInfo[11] << 4) | (streamInfo[12] >> 4);
}
