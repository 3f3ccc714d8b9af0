import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';

/**
 * Raw PCM/A-law/µ-law targets: whole sample frames, timed by their byte offset; no headers. Units are
 * cut at 20 ms so that a unit never straddles two speech segments by more than 10 ms.
 */
export class PcmUnitReader implements MediaUnitReader {
  private carry: Buffer = Buffer.alloc(0);
  private frames = 0;

  constructor(
    private readonly sampleRate: number,
    private readonly bytesPerFrame: number,
  ) {}

  push(bytes: Buffer): MediaUnit[] {
    const all = this.carry.length ? Buffer.concat([this.carry, bytes]) : bytes;
    const usable = all.length - (all.length % this.bytesPerFrame);
    this.carry = Buffer.from(all.subarray(usable));
    const units: MediaUnit[] = [];
    const framesPerUnit = Math.round(this.sampleRate / 50);
    for (let offset = 0; offset < usable; offset += framesPerUnit * this.bytesPerFrame) {
      const data = Buffer.from(all.subarray(offset, Math.min(usable, offset + framesPerUnit * this.bytesPerFrame)));
      const frames = data.length / this.bytesPerFrame;
      units.push({
        data,
        header: false,
        startMs: (this.frames / this.sampleRate) * 1000,
        durationMs: (frames / this.sampleRate) * 1000,
      });
      this.frames += frames;
    }
    return units;
  }

  end(): MediaUnit[] {
    if (this.carry.length > 0) throw new MalformedMediaError('PCM stream ended inside a sample frame');
    return [];
  }
}
