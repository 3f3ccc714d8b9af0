import {
  AudioDecodeError,
  AudioDecoderFailure,
  type AudioDecoder,
  type AudioDecoderFactory,
  type DecodedAudioListener,
} from '../audio-decoder';
import type { SourceAudioFormat } from '../../domain/media/source-formats';
import { describeExit, FfmpegProcess } from './ffmpeg-process';

/**
 * Compressed bytes that may reach ffmpeg without a single decoded sample before the format is declared
 * unreadable. Every supported codec yields audio within its first container page/cluster (a few kB;
 * 256 kB is 8 s even of FLAC), so this means the data is not what the session declared (ffmpeg would
 * otherwise search for a sync code until the end of the stream). Raw PCM always decodes.
 */
export const UNDECODABLE_BYTES_LIMIT = 256 * 1024;

/** One ffmpeg process per session: source bytes on stdin, PCM s16le mono on stdout. */
export class FfmpegAudioDecoder implements AudioDecoder {
  private readonly process: FfmpegProcess;
  private carry: Buffer | undefined;
  private bytesIn = 0;
  private pcmBytesOut = 0;
  private failure: AudioDecodeError | AudioDecoderFailure | undefined;
  private closed = false;
  private readonly finished: Promise<void>;
  private readonly compressed: boolean;

  constructor(
    format: SourceAudioFormat,
    outputSampleRate: number,
    private readonly listener: DecodedAudioListener,
  ) {
    const input = format.ffmpegInput ?? ['-f', 's16le', '-ar', String(outputSampleRate), '-ac', '1'];
    this.compressed = format.pcm === undefined;
    this.process = new FfmpegProcess(
      [
        // Start decoding as soon as possible: the stream is live.
        '-fflags',
        'nobuffer',
        '-flags',
        'low_delay',
        '-probesize',
        '32',
        '-analyzeduration',
        '0',
        ...input,
        '-i',
        'pipe:0',
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(outputSampleRate),
        '-f',
        's16le',
        'pipe:1',
      ],
      (bytes) => this.onStdout(bytes),
    );
    this.finished = this.process.exited.then((result) => {
      if (this.closed) return;
      if (this.failure) throw this.failure;
      // Killed or crashed (a signal we did not send), or not started at all: the decoder failed, not the client.
      if (result.spawnError || result.signal)
        throw this.fail(new AudioDecoderFailure(`the source audio decoder stopped: ${describeExit(result)}`));
      // A stream that ended before any audio was sent has nothing to decode (ffmpeg reports an empty input).
      if (this.bytesIn === 0) return;
      if (result.code !== 0) {
        throw this.fail(
          new AudioDecodeError(`the audio could not be decoded as ${format.contentType}: ${this.process.errorText}`),
        );
      }
      if (this.pcmBytesOut === 0) {
        throw this.fail(
          new AudioDecodeError(`the audio could not be decoded as ${format.contentType}: no audio samples found`),
        );
      }
    });
    // Failures are also reported through the listener; this keeps an unobserved rejection harmless.
    this.finished.catch(() => undefined);
  }

  write(bytes: Buffer): void {
    if (this.closed || this.failure) return;
    this.bytesIn += bytes.length;
    this.process.write(bytes);
    if (this.compressed && this.pcmBytesOut === 0 && this.bytesIn > UNDECODABLE_BYTES_LIMIT) {
      this.fail(
        new AudioDecodeError(`no audio could be decoded from the first ${this.bytesIn} bytes as the declared format`),
      );
      this.process.kill();
    }
  }

  end(): Promise<void> {
    this.process.endInput();
    return this.finished;
  }

  close(): void {
    this.closed = true;
    this.process.kill();
  }

  private onStdout(bytes: Buffer): void {
    if (this.closed || this.failure) return;
    // Keep whole 16-bit samples only.
    let pcm = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    this.carry = undefined;
    if (pcm.length % 2 === 1) {
      this.carry = Buffer.from(pcm.subarray(pcm.length - 1));
      pcm = pcm.subarray(0, pcm.length - 1);
    }
    if (pcm.length === 0) return;
    this.pcmBytesOut += pcm.length;
    this.listener.onPcm(pcm);
  }

  /** Reports the first failure (once) and returns the one reported. */
  private fail(error: AudioDecodeError | AudioDecoderFailure): AudioDecodeError | AudioDecoderFailure {
    if (!this.failure) {
      this.failure = error;
      this.listener.onError(error);
    }
    return this.failure;
  }
}

/** PCM s16le already at the recogniser's rate: nothing to decode. */
export class PassthroughAudioDecoder implements AudioDecoder {
  private carry: Buffer | undefined;
  private closed = false;

  constructor(private readonly listener: DecodedAudioListener) {}

  write(bytes: Buffer): void {
    if (this.closed) return;
    let pcm = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    this.carry = undefined;
    if (pcm.length % 2 === 1) {
      this.carry = Buffer.from(pcm.subarray(pcm.length - 1));
      pcm = pcm.subarray(0, pcm.length - 1);
    }
    if (pcm.length > 0) this.listener.onPcm(pcm);
  }

  async end(): Promise<void> {}

  close(): void {
    this.closed = true;
  }
}

export class FfmpegAudioDecoderFactory implements AudioDecoderFactory {
  create(format: SourceAudioFormat, outputSampleRate: number, listener: DecodedAudioListener): AudioDecoder {
    if (format.ffmpegInput === null && format.pcm?.sampleRate === outputSampleRate)
      return new PassthroughAudioDecoder(listener);
    return new FfmpegAudioDecoder(format, outputSampleRate, listener);
  }
}
