/** PCM audio read from a WAV file. */
export interface WavAudio {
  readonly sampleRate: number;
  readonly channels: number;
  /** s16le samples (interleaved when channels > 1). */
  readonly pcm: Buffer;
}

/**
 * Reads a 16-bit PCM WAV. Tolerates the "unknown length" sizes that streaming writers (espeak-ng --stdout)
 * put in the RIFF and data headers: the data then runs to the end of the buffer.
 */
export function parseWav(bytes: Buffer): WavAudio {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = bytes.readUInt16LE(body);
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      const bits = bytes.readUInt16LE(body + 14);
      if (format !== 1 || bits !== 16) throw new Error(`WAV is not 16-bit PCM (format ${format}, ${bits} bits)`);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('WAV data chunk before its fmt chunk');
      const end = Math.min(bytes.length, body + size);
      const usable = end - body - ((end - body) % (2 * channels));
      return { sampleRate, channels, pcm: bytes.subarray(body, body + usable) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

/** Wraps mono s16le PCM into a WAV file. */
export function buildWav(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
