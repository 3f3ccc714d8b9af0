import type { MediaUnit } from './containers/media-unit';
import type { TargetAudioFormat } from '../domain/media/target-formats';

export interface EncodedAudioListener {
  /** Units in stream order, on the encoder's timeline (ms from the first input sample). */
  onUnits(units: MediaUnit[]): void;
  onError(error: Error): void;
}

/** A long-running encoder: PCM in (continuously, speech only), container/codec units out. */
export interface AudioEncoder {
  write(pcm: Buffer): void;
  /** No more input: resolves after the last unit was delivered. */
  end(): Promise<void>;
  close(): void;
}

export interface AudioEncoderFactory {
  create(format: TargetAudioFormat, inputSampleRate: number, listener: EncodedAudioListener): AudioEncoder;
}
