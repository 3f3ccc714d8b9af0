import { MalformedMediaError } from './media-unit';

/** One Ogg page (RFC 3533) as it appeared in the stream. */
export interface OggPage {
  readonly bytes: Buffer;
  /** Granule position; -1n when no packet ends on this page. */
  readonly granule: bigint;
  /** Lacing values, one per segment. */
  readonly lacing: Uint8Array;
  readonly payload: Buffer;
}

const CAPTURE = Buffer.from('OggS', 'latin1');
const FIXED_HEADER = 27;

/** Cuts a byte stream into whole Ogg pages. */
export class OggPageSplitter {
  private pending: Buffer = Buffer.alloc(0);

  push(bytes: Buffer): OggPage[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    const pages: OggPage[] = [];
    for (;;) {
      if (this.pending.length < FIXED_HEADER) break;
      if (!this.pending.subarray(0, 4).equals(CAPTURE)) throw new MalformedMediaError('Ogg stream lost page sync');
      const segmentCount = this.pending[26];
      const headerLength = FIXED_HEADER + segmentCount;
      if (this.pending.length < headerLength) break;
      const lacing = this.pending.subarray(FIXED_HEADER, headerLength);
      const bodyLength = lacing.reduce((sum, value) => sum + value, 0);
      const pageLength = headerLength + bodyLength;
      if (this.pending.length < pageLength) break;
      const bytesOfPage = Buffer.from(this.pending.subarray(0, pageLength));
      pages.push({
        bytes: bytesOfPage,
        granule: bytesOfPage.readBigInt64LE(6),
        lacing: bytesOfPage.subarray(FIXED_HEADER, headerLength),
        payload: bytesOfPage.subarray(headerLength),
      });
      this.pending = this.pending.subarray(pageLength);
    }
    return pages;
  }

  /** Bytes that do not form a whole page yet. */
  get leftover(): number {
    return this.pending.length;
  }
}

/** Reassembles packets from pages (a packet may continue over several pages). */
export class OggPacketAssembler {
  private partial: Buffer[] = [];

  push(page: OggPage): Buffer[] {
    const packets: Buffer[] = [];
    let offset = 0;
    for (const value of page.lacing) {
      this.partial.push(page.payload.subarray(offset, offset + value));
      offset += value;
      if (value < 255) {
        packets.push(Buffer.concat(this.partial));
        this.partial = [];
      }
    }
    return packets;
  }

  get hasPartialPacket(): boolean {
    return this.partial.length > 0;
  }
}
