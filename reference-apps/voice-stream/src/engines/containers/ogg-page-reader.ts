import { streamInfoSampleRate } from './flac-frame';
import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';
import { OggPacketAssembler, OggPageSplitter } from './ogg-pages';
import { readOpusHeadPreSkip } from './opus-packet';

/**
 * `audio/ogg` target: one unit per Ogg page. Pages before the first audio page (granule 0) carry the
 * codec headers; page timing comes from granule positions (48 kHz minus pre-skip for Opus, the stream's
 * sample rate for FLAC).
 */
export class OggPageReader implements MediaUnitReader {
  private readonly splitter = new OggPageSplitter();
  private readonly packets = new OggPacketAssembler();
  private granuleRate = 0;
  private preSkip = 0;
  private lastGranule = 0n;
  private audioStarted = false;

  push(bytes: Buffer): MediaUnit[] {
    const units: MediaUnit[] = [];
    for (const page of this.splitter.push(bytes)) {
      const completed = this.packets.push(page);
      if (this.granuleRate === 0 && completed.length > 0) this.learnCodec(completed[0]);
      const isHeaderPage = !this.audioStarted && page.granule === 0n;
      if (isHeaderPage) {
        units.push({ data: page.bytes, header: true, startMs: 0, durationMs: 0 });
        continue;
      }
      this.audioStarted = true;
      if (this.granuleRate === 0) throw new MalformedMediaError('Ogg audio page before a recognised codec header');
      const start = this.toMs(this.lastGranule);
      if (page.granule >= 0n) this.lastGranule = page.granule;
      const end = this.toMs(this.lastGranule);
      units.push({ data: page.bytes, header: false, startMs: start, durationMs: end - start });
    }
    return units;
  }

  end(): MediaUnit[] {
    if (this.splitter.leftover > 0)
      throw new MalformedMediaError(`Ogg stream ended inside a page (${this.splitter.leftover} bytes left)`);
    return [];
  }

  private learnCodec(firstPacket: Buffer): void {
    const preSkip = readOpusHeadPreSkip(firstPacket);
    if (preSkip !== undefined) {
      this.granuleRate = 48000;
      this.preSkip = preSkip;
      return;
    }
    // Ogg FLAC mapping: 0x7F "FLAC" major minor count(2) "fLaC" blockheader(4) STREAMINFO.
    if (firstPacket[0] === 0x7f && firstPacket.subarray(1, 5).toString('latin1') === 'FLAC') {
      this.granuleRate = streamInfoSampleRate(firstPacket.subarray(17));
      return;
    }
    throw new MalformedMediaError('Ogg stream carries neither Opus nor FLAC');
  }

  private toMs(granule: bigint): number {
    return Math.max(0, (Number(granule) - this.preSkip) / this.granuleRate) * 1000;
  }
}
