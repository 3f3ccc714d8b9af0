/** Minimal Ogg muxer (RFC 3533) so tests can decode the raw Opus packets of `audio/opus` with ffmpeg. */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    let crc = index << 24;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    table[index] = crc >>> 0;
  }
  return table;
})();

function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc >>> 0;
}

function page(packet: Buffer, granule: bigint, sequence: number, flags: number): Buffer {
  const lacing: number[] = [];
  let left = packet.length;
  while (left >= 255) {
    lacing.push(255);
    left -= 255;
  }
  lacing.push(left);
  if (lacing.length > 255) throw new Error('packet too large for one Ogg page');
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x566f6963, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const bytes = Buffer.concat([header, packet]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/** One packet per page; granule positions from the packets' durations (48 kHz). */
export function oggFromOpusPackets(headers: Buffer[], audio: { packet: Buffer; samples48k: number }[]): Buffer {
  const pages: Buffer[] = [];
  let sequence = 0;
  headers.forEach((packet, index) => pages.push(page(packet, 0n, sequence++, index === 0 ? 0x02 : 0)));
  let granule = 0n;
  audio.forEach(({ packet, samples48k }, index) => {
    granule += BigInt(samples48k);
    pages.push(page(packet, granule, sequence++, index === audio.length - 1 ? 0x04 : 0));
  });
  return Buffer.concat(pages);
}

/** Samples (at 48 kHz) in one Opus packet, read from its TOC byte (RFC 6716 3.1), for granule positions. */
export function opusPacketSamples(packet: Buffer): number {
  const config = packet[0] >> 3;
  const frameSamples =
    config < 12
      ? [480, 960, 1920, 2880][config % 4]
      : config < 16
        ? [480, 960][config % 2]
        : [120, 240, 480, 960][config % 4];
  const code = packet[0] & 3;
  const frames = code === 0 ? 1 : code === 3 ? packet[1] & 0x3f : 2;
  return frameSamples * frames;
}
