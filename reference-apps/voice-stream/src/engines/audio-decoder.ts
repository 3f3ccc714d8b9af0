import type { SourceAudioFormat } from '../media/source-formats';

/** Receives decoded audio: PCM s16le mono at the rate the decoder was asked for. */
export interface DecodedAudioListener {
  onPcm(pcm: Buffer): void;
  /** The bytes cannot be decoded as the declared format (or the decoder died). */
  onError(error: AudioDecodeError): void;
}

/** Turns the client's source bytes, in the session's format, into PCM for the recogniser. */
export interface AudioDecoder {
  write(bytes: Buffer): void;
  /** No more input: resolves after the last PCM was delivered; rejects with AudioDecodeError. */
  end(): Promise<void>;
  /** Abandons decoding at once (session over). */
  close(): void;
}

export interface AudioDecoderFactory {
  create(format: SourceAudioFormat, outputSampleRate: number, listener: DecodedAudioListener): AudioDecoder;
}

export class AudioDecodeError extends Error {
  override readonly name = 'AudioDecodeError';
}
