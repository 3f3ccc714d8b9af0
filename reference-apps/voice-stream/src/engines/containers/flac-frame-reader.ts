import { flacFrameBlockSize, streamInfoSampleRate } from './flac-frame';
import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';
import { OggPacketAssembler, OggPageSplitter } from './ogg-pages';

/**
 * `audio/flac` target: native FLAC. The encoder writes Ogg FLAC (so packet boundaries are known without
 * guessing frame syncs); the reader turns its header packets into one `fLaC` + metadata-blocks header unit
 * and passes every audio packet (one FLAC frame) on as its own unit.
 */
export class FlacFrameReader implements MediaUnitReader {
  private readonly splitter = new OggPageSplitter();
  private readonly assembler = new OggPacketAssembler();
  private headerParts: Buffer[] = [];
  private headerPacketsLeft = -1;
  private sampleRate = 0;
  private samples = 0;

  push(bytes: Buffer): MediaUnit[] {
    const units: MediaUnit[] = [];
    for (const page of this.splitter.push(bytes)) {
      for (const packet of this.assembler.push(page)) {
        if (this.headerPacketsLeft === -1) {
          this.readMappingPacket(packet);
        } else if (this.headerPacketsLeft > 0) {
          this.headerParts.push(packet);
          this.headerPacketsLeft -= 1;
        } else {
          const blockSize = flacFrameBlockSize(packet);
          const start = (this.samples / this.sampleRate) * 1000;
          this.samples += blockSize;
          units.push({ data: packet, header: false, startMs: start, durationMs: (blockSize / this.sampleRate) * 1000 });
          continue;
        }
        if (this.headerPacketsLeft === 0 && this.headerParts.length > 0) {
          units.push({ data: Buffer.concat(this.headerParts), header: true, startMs: 0, durationMs: 0 });
          this.headerParts = [];
        }
      }
    }
    return units;
  }

  end(): MediaUnit[] {
    if (this.splitter.leftover > 0 || this.assembler.hasPartialPacket)
      throw new MalformedMediaError('FLAC stream ended inside a frame');
    return [];
  }

  private readMappingPacket(packet: Buffer): void {
    if (packet.length < 51 || packet[0] !== 0x7f || packet.subarray(1, 5).toString('latin1') !== 'FLAC') {
      throw new MalformedMediaError('FLAC stream does not start with the Ogg FLAC mapping header');
    }
    this.headerPacketsLeft = packet.readUInt16BE(7);
    this.sampleRate = streamInfoSampleRate(packet.subarray(17));
    // "fLaC" followed by the STREAMINFO block: the start of a native FLAC stream.
    this.headerParts.push(packet.subarray(9));
  }
}
