import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';
import { OggPacketAssembler, OggPageSplitter } from './ogg-pages';
import { opusPacketDurationMs, readOpusHeadPreSkip } from './opus-packet';

/**
 * `audio/opus` target: raw Opus packets taken out of the encoder's Ogg stream. The first two packets
 * (OpusHead, OpusTags; RFC 7845) are the header packets; audio packet times come from their TOC bytes,
 * shifted back by the pre-skip so they line up with the input.
 */
export class OpusPacketReader implements MediaUnitReader {
  private readonly splitter = new OggPageSplitter();
  private readonly assembler = new OggPacketAssembler();
  private headerPackets = 0;
  private preSkipMs = 0;
  private timelineMs = 0;

  push(bytes: Buffer): MediaUnit[] {
    const units: MediaUnit[] = [];
    for (const page of this.splitter.push(bytes)) {
      for (const packet of this.assembler.push(page)) {
        if (this.headerPackets < 2) {
          if (this.headerPackets === 0) {
            const preSkip = readOpusHeadPreSkip(packet);
            if (preSkip === undefined) throw new MalformedMediaError('Opus stream does not start with OpusHead');
            this.preSkipMs = (preSkip / 48000) * 1000;
          }
          this.headerPackets += 1;
          units.push({ data: packet, header: true, startMs: 0, durationMs: 0 });
          continue;
        }
        const duration = opusPacketDurationMs(packet);
        const start = this.timelineMs - this.preSkipMs;
        this.timelineMs += duration;
        const shownStart = Math.max(0, start);
        units.push({ data: packet, header: false, startMs: shownStart, durationMs: start + duration - shownStart });
      }
    }
    return units;
  }

  end(): MediaUnit[] {
    if (this.splitter.leftover > 0 || this.assembler.hasPartialPacket)
      throw new MalformedMediaError('Opus stream ended inside a packet');
    return [];
  }
}
