/**
 * One indivisible piece of encoded target audio (a codec packet, an Ogg page or a Matroska cluster),
 * placed on the encoder's output timeline so it can be matched to the speech segment it carries.
 */
export interface MediaUnit {
  readonly data: Buffer;
  /** Decoder initialisation data (container header, OpusHead/OpusTags, FLAC metadata). */
  readonly header: boolean;
  /** Playback start on the encoder timeline, in milliseconds (0 for headers). */
  readonly startMs: number;
  /** Playback duration, in milliseconds (0 for headers). */
  readonly durationMs: number;
}

/** Splits an encoder's byte stream into media units as bytes arrive. */
export interface MediaUnitReader {
  /** Feeds the next bytes; returns every unit that became complete. */
  push(bytes: Buffer): MediaUnit[];
  /** The stream ended: returns the remaining units, throws when bytes are left that form no whole unit. */
  end(): MediaUnit[];
}

export class MalformedMediaError extends Error {
  override readonly name = 'MalformedMediaError';
}
