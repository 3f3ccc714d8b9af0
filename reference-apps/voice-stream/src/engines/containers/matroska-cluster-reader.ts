import { EbmlId, readChildren, readElementHeader, readFloat, readTrackNumber, readUnsigned } from './ebml';
import { flacFrameBlockSize } from './flac-frame';
import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';
import { opusPacketDurationMs } from './opus-packet';

type FrameDuration = (frame: Buffer) => number;

/**
 * `audio/webm` and `audio/x-matroska` targets: everything before the first Cluster (EBML header,
 * Segment header, SeekHead, Info, Tracks) is one header unit; every Cluster is one unit whose timing
 * comes from its Timecode and the blocks' codec frame lengths.
 */
export class MatroskaClusterReader implements MediaUnitReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerParts: Buffer[] = [];
  private insideSegment = false;
  private clustersSeen = false;
  private timecodeScaleMs = 1;
  private codecDelayMs = 0;
  private frameDuration: FrameDuration | undefined;

  push(bytes: Buffer): MediaUnit[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const units: MediaUnit[] = [];
    for (;;) {
      const header = readElementHeader(this.pending, 0);
      if (!header) break;
      if (header.id === EbmlId.Segment && !this.insideSegment) {
        // Enter the Segment: its children follow at the same reading level.
        this.insideSegment = true;
        this.headerParts.push(Buffer.from(this.pending.subarray(0, header.headerLength)));
        this.pending = this.pending.subarray(header.headerLength);
        continue;
      }
      if (header.size === undefined)
        throw new MalformedMediaError(`unknown-size Matroska element 0x${header.id.toString(16)}`);
      const length = header.headerLength + header.size;
      if (this.pending.length < length) break;
      const element = Buffer.from(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
      const data = element.subarray(header.headerLength);
      if (header.id === EbmlId.Cluster) {
        if (!this.clustersSeen) {
          this.clustersSeen = true;
          units.push({ data: Buffer.concat(this.headerParts), header: true, startMs: 0, durationMs: 0 });
          this.headerParts = [];
        }
        units.push(this.clusterUnit(element, data));
      } else if (!this.clustersSeen) {
        if (header.id === EbmlId.Info) this.readInfo(data);
        if (header.id === EbmlId.Tracks) this.readTracks(data);
        this.headerParts.push(element);
      } else {
        // Trailing Cues/Tags: no audio, passed on so the stream stays byte-identical.
        units.push({ data: element, header: false, startMs: Number.MAX_SAFE_INTEGER, durationMs: 0 });
      }
    }
    return units;
  }

  end(): MediaUnit[] {
    if (this.pending.length > 0)
      throw new MalformedMediaError(`Matroska stream ended inside an element (${this.pending.length} bytes left)`);
    return [];
  }

  private readInfo(data: Buffer): void {
    for (const child of readChildren(data)) {
      if (child.id === EbmlId.TimecodeScale) this.timecodeScaleMs = readUnsigned(child.data) / 1e6;
    }
  }

  private readTracks(data: Buffer): void {
    const entry = readChildren(data).find((child) => child.id === EbmlId.TrackEntry);
    if (!entry) throw new MalformedMediaError('Matroska stream without a track');
    let codec = '';
    let sampleRate = 0;
    for (const child of readChildren(entry.data)) {
      if (child.id === EbmlId.CodecID) codec = child.data.toString('latin1').replace(/\0+$/, '');
      if (child.id === EbmlId.CodecDelay) this.codecDelayMs = readUnsigned(child.data) / 1e6;
      if (child.id === EbmlId.Audio) {
        for (const audio of readChildren(child.data)) {
          if (audio.id === EbmlId.SamplingFrequency) sampleRate = readFloat(audio.data);
        }
      }
    }
    if (codec === 'A_OPUS') this.frameDuration = opusPacketDurationMs;
    else if (codec === 'A_FLAC') this.frameDuration = (frame) => (flacFrameBlockSize(frame) / sampleRate) * 1000;
    else if (codec.startsWith('A_AAC')) this.frameDuration = () => (1024 / sampleRate) * 1000;
    else throw new MalformedMediaError(`unsupported Matroska codec ${codec || '(none)'}`);
    if (codec !== 'A_OPUS' && !(sampleRate > 0))
      throw new MalformedMediaError('Matroska audio track without a sampling frequency');
  }

  private clusterUnit(element: Buffer, data: Buffer): MediaUnit {
    if (!this.frameDuration) throw new MalformedMediaError('Matroska cluster before the track description');
    let clusterTimecode = 0;
    let firstBlockTimecode: number | undefined;
    let durationMs = 0;
    for (const child of readChildren(data)) {
      if (child.id === EbmlId.Timecode) clusterTimecode = readUnsigned(child.data);
      let block: Buffer | undefined;
      let explicitDuration: number | undefined;
      if (child.id === EbmlId.SimpleBlock) block = child.data;
      if (child.id === EbmlId.BlockGroup) {
        for (const part of readChildren(child.data)) {
          if (part.id === EbmlId.Block) block = part.data;
          if (part.id === EbmlId.BlockDuration) explicitDuration = readUnsigned(part.data) * this.timecodeScaleMs;
        }
      }
      if (!block) continue;
      const track = readTrackNumber(block);
      const relative = block.readInt16BE(track.length);
      const flags = block[track.length + 2];
      if (flags & 0x06) throw new MalformedMediaError('laced Matroska blocks are not supported');
      firstBlockTimecode ??= relative;
      durationMs += explicitDuration ?? this.frameDuration(block.subarray(track.length + 3));
    }
    const startMs = (clusterTimecode + (firstBlockTimecode ?? 0)) * this.timecodeScaleMs - this.codecDelayMs;
    const shownStart = Math.max(0, startMs);
    return {
      data: element,
      header: false,
      startMs: shownStart,
      durationMs: Math.max(0, startMs + durationMs - shownStart),
    };
  }
}
