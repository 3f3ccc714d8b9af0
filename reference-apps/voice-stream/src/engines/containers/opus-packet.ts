import { MalformedMediaError } from './media-unit';

/** Opus frame length in ms for each TOC configuration number (RFC 6716 section 3.1). */
function frameMs(config: number): number {
  if (config < 12) return [10, 20, 40, 60][config % 4]; // SILK-only
  if (config < 16) return [10, 20][config % 2]; // hybrid
  return [2.5, 5, 10, 20][config % 4]; // CELT-only
}

/** Playback duration of one Opus packet, from its TOC byte (and frame-count byte for code 3). */
export function opusPacketDurationMs(packet: Uint8Array): number {
  if (packet.length === 0) throw new MalformedMediaError('empty Opus packet');
  const toc = packet[0];
  const code = toc & 0x03;
  let frames: number;
  if (code === 0) frames = 1;
  else if (code === 3) {
    if (packet.length < 2) throw new MalformedMediaError('Opus code-3 packet without frame count');
    frames = packet[1] & 0x3f;
  } else frames = 2;
  return frameMs(toc >> 3) * frames;
}

/** Reads `OpusHead` (RFC 7845 section 5.1): the pre-skip in 48 kHz samples. */
export function readOpusHeadPreSkip(packet: Uint8Array): number | undefined {
  if (packet.length < 19 || Buffer.from(packet.subarray(0, 8)).toString('latin1') !== 'OpusHead') return undefined;
  return packet[10] | (packet[11] << 8);
}
