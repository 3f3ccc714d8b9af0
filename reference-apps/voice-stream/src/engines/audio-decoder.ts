import type { SourceAudioFormat } from '../domain/media/source-formats';

/** Receives decoded audio: PCM s16le mono at the rate the decoder was asked for. */
export interface DecodedAudioListener {
  onPcm(pcm: Buffer): void;
  /** The bytes cannot be decoded as the declared format (AudioDecodeError), or the decoder itself failed (AudioDecoderFailure). */
  onError(error: AudioDecodeError | AudioDecoderFailure): void;
}

/** Turns the client's source bytes, in the session's format, into PCM for the recogniser. */
export interface AudioDecoder {
  write(bytes: Buffer): void;
  /** No more input: resolves after the last PCM was delivered; rejects with AudioDecodeError or AudioDecoderFailure. */
  end(): Promise<void>;
  /** Abandons decoding at once (session over). */
  close(): void;
}

export interface AudioDecoderFactory {
  create(format: SourceAudioFormat, outputSampleRate: number, listener: DecodedAudioListener): AudioDecoder;
}

/** The client's bytes are not audio in the declared format: the client's fault (a 400). */
export class AudioDecodeError extends Error {
  override readonly name = 'AudioDecodeError';
}

/** The decoder stopped for reasons of its own (its process was killed or crashed, or could not start): a 500. */
export class AudioDecoderFailure extends Error {
  override readonly name = 'AudioDecoderFailure';
}
