import { MalformedMediaError, type MediaUnit, type MediaUnitReader } from './media-unit';
import { opusPacketDurationMs } from './opus-packet';

const PACKET = 188;
const SYNC = 0x47;
const PAT_PID = 0;
/** PMT stream types: ADTS AAC, and private data (Opus carries a registration descriptor "Opus"). */
const STREAM_TYPE_AAC = 0x0f;
const STREAM_TYPE_PRIVATE = 0x06;
const AAC_SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

type Codec = 'aac' | 'opus';

interface PesUnit {
  readonly packets: Buffer[];
  payload: Buffer[];
}

/**
 * `video/mp2t` targets: 188-byte transport packets grouped into units. The tables before the first audio PES
 * (SDT, PAT, PMT) are the header unit; every audio PES, with the packets that follow it up to the next PES
 * (the tables the muxer repeats among them included), is one unit, so the units concatenated are the stream
 * byte for byte. Timing comes from the codec frames in each PES: ADTS frames of 1024 samples for AAC, Opus
 * access units (their TOC, less any trim) for Opus.
 */
export class MpegTsReader implements MediaUnitReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerPackets: Buffer[] = [];
  private pmtPid: number | undefined;
  private audioPid: number | undefined;
  private codec: Codec | undefined;
  private current: PesUnit | undefined;
  private timelineMs = 0;

  push(bytes: Buffer): MediaUnit[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const units: MediaUnit[] = [];
    let offset = 0;
    for (; offset + PACKET <= this.pending.length; offset += PACKET) {
      const packet = Buffer.from(this.pending.subarray(offset, offset + PACKET));
      const unit = this.packet(packet);
      if (unit) units.push(...unit);
    }
    this.pending = this.pending.subarray(offset);
    return units;
  }

  end(): MediaUnit[] {
    if (this.pending.length > 0)
      throw new MalformedMediaError(`MPEG-TS stream ended inside a packet (${this.pending.length} bytes left)`);
    if (!this.current) return [];
    const last = this.finish(this.current);
    this.current = undefined;
    return [last];
  }

  private packet(packet: Buffer): MediaUnit[] | undefined {
    if (packet[0] !== SYNC) throw new MalformedMediaError('MPEG-TS packet without its sync byte');
    const pid = ((packet[1] & 0x1f) << 8) | packet[2];
    const unitStart = (packet[1] & 0x40) !== 0;
    const payload = payloadOf(packet);
    if (pid === PAT_PID && unitStart && this.pmtPid === undefined) this.pmtPid = readPat(payload);
    else if (pid === this.pmtPid && unitStart && this.audioPid === undefined) this.readPmt(payload);

    if (pid !== this.audioPid) {
      // Tables: part of the header until audio starts, then carried in the unit they fall in.
      if (this.current) this.current.packets.push(packet);
      else this.headerPackets.push(packet);
      return undefined;
    }
    const units: MediaUnit[] = [];
    if (unitStart) {
      if (this.current) units.push(this.finish(this.current));
      else {
        units.push({ data: Buffer.concat(this.headerPackets), header: true, startMs: 0, durationMs: 0 });
        this.headerPackets = [];
      }
      this.current = { packets: [], payload: [] };
    }
    if (!this.current) throw new MalformedMediaError('MPEG-TS audio packet before the start of a PES');
    this.current.packets.push(packet);
    this.current.payload.push(payload);
    return units;
  }

  private readPmt(payload: Buffer): void {
    const section = payload.subarray(1 + payload[0]);
    if (section[0] !== 0x02) throw new MalformedMediaError('MPEG-TS PMT with an unexpected table id');
    const sectionEnd = 3 + (((section[1] & 0x0f) << 8) | section[2]) - 4;
    const programInfoLength = ((section[10] & 0x0f) << 8) | section[11];
    let position = 12 + programInfoLength;
    if (position + 5 > sectionEnd) throw new MalformedMediaError('MPEG-TS PMT without an elementary stream');
    const streamType = section[position];
    this.audioPid = ((section[position + 1] & 0x1f) << 8) | section[position + 2];
    const infoLength = ((section[position + 3] & 0x0f) << 8) | section[position + 4];
    position += 5;
    if (streamType === STREAM_TYPE_AAC) this.codec = 'aac';
    else if (
      streamType === STREAM_TYPE_PRIVATE &&
      section.subarray(position, position + infoLength).includes(Buffer.from('Opus', 'latin1'))
    )
      this.codec = 'opus';
    else throw new MalformedMediaError(`MPEG-TS stream type 0x${streamType.toString(16)} is not AAC or Opus`);
  }

  private finish(unit: PesUnit): MediaUnit {
    const pes = Buffer.concat(unit.payload);
    if (pes.length < 9 || pes[0] !== 0 || pes[1] !== 0 || pes[2] !== 1)
      throw new MalformedMediaError('MPEG-TS audio PES without its start code');
    const elementary = pes.subarray(9 + pes[8]);
    const durationMs = this.codec === 'aac' ? adtsDurationMs(elementary) : opusAccessUnitsDurationMs(elementary);
    const startMs = this.timelineMs;
    this.timelineMs += durationMs;
    return { data: Buffer.concat(unit.packets), header: false, startMs, durationMs };
  }
}

/** The payload of a transport packet, after its adaptation field when it has one. */
function payloadOf(packet: Buffer): Buffer {
  const control = (packet[3] >> 4) & 0x03;
  if (control === 0x02) return Buffer.alloc(0);
  const start = control === 0x03 ? 5 + packet[4] : 4;
  return packet.subarray(Math.min(start, PACKET));
}

/** The PID of the first program's PMT. */
function readPat(payload: Buffer): number {
  const section = payload.subarray(1 + payload[0]);
  if (section[0] !== 0x00) throw new MalformedMediaError('MPEG-TS PAT with an unexpected table id');
  const sectionEnd = 3 + (((section[1] & 0x0f) << 8) | section[2]) - 4;
  for (let position = 8; position + 4 <= sectionEnd; position += 4) {
    const program = (section[position] << 8) | section[position + 1];
    if (program !== 0) return ((section[position + 2] & 0x1f) << 8) | section[position + 3];
  }
  throw new MalformedMediaError('MPEG-TS PAT without a program');
}

function adtsDurationMs(data: Buffer): number {
  let durationMs = 0;
  for (let position = 0; position + 7 <= data.length; ) {
    if (data[position] !== 0xff || (data[position + 1] & 0xf0) !== 0xf0)
      throw new MalformedMediaError('AAC in MPEG-TS without an ADTS frame header');
    const rate = AAC_SAMPLE_RATES[(data[position + 2] >> 2) & 0x0f];
    if (!rate) throw new MalformedMediaError('ADTS frame with a reserved sampling frequency');
    const length = ((data[position + 3] & 0x03) << 11) | (data[position + 4] << 3) | (data[position + 5] >> 5);
    const blocks = (data[position + 6] & 0x03) + 1;
    if (length < 7) throw new MalformedMediaError('ADTS frame shorter than its header');
    durationMs += ((blocks * 1024) / rate) * 1000;
    position += length;
  }
  return durationMs;
}

/** Opus access units in MPEG-TS (ETSI TS 102 366 mapping): control header, size, optional trims, the packet. */
function opusAccessUnitsDurationMs(data: Buffer): number {
  let durationMs = 0;
  for (let position = 0; position + 2 <= data.length; ) {
    if (data[position] !== 0x7f || (data[position + 1] & 0xe0) !== 0xe0)
      throw new MalformedMediaError('Opus in MPEG-TS without an access unit control header');
    const flags = data[position + 1];
    position += 2;
    let size = 0;
    for (;;) {
      const byte = data[position++];
      if (byte === undefined) throw new MalformedMediaError('Opus access unit size cut short');
      size += byte;
      if (byte !== 0xff) break;
    }
    let trimSamples = 0;
    if (flags & 0x10) {
      trimSamples += ((data[position] & 0x1f) << 8) | data[position + 1];
      position += 2;
    }
    if (flags & 0x08) {
      trimSamples += ((data[position] & 0x1f) << 8) | data[position + 1];
      position += 2;
    }
    if (flags & 0x04) position += 1 + data[position];
    if (position + size > data.length) throw new MalformedMediaError('Opus access unit longer than its PES');
    durationMs += Math.max(0, opusPacketDurationMs(data.subarray(position, position + size)) - trimSamples / 48);
    position += size;
  }
  return durationMs;
}
