import type { MediaUnitReader } from '../containers/media-unit';
import type { TargetAudioFormat } from '../../domain/media/target-formats';
import type { AudioEncoder, AudioEncoderFactory, EncodedAudioListener } from '../audio-encoder';
import { describeExit, FfmpegProcess } from './ffmpeg-process';

/**
 * One long-running ffmpeg per session: PCM s16le mono on stdin (kept open between segments), the target
 * container/codec on stdout, cut into units by the format's reader as bytes arrive.
 */
export class FfmpegAudioEncoder implements AudioEncoder {
  private readonly process: FfmpegProcess;
  private readonly reader: MediaUnitReader;
  private failed = false;
  private closed = false;
  private readonly finished: Promise<void>;

  constructor(
    format: TargetAudioFormat,
    inputSampleRate: number,
    private readonly listener: EncodedAudioListener,
  ) {
    this.reader = format.createReader();
    this.process = new FfmpegProcess(
      [
        '-f',
        's16le',
        '-ar',
        String(inputSampleRate),
        '-ac',
        '1',
        '-i',
        'pipe:0',
        '-ac',
        '1',
        ...format.ffmpegOutput,
        '-flush_packets',
        '1',
        'pipe:1',
      ],
      (bytes) => this.onStdout(bytes),
    );
    this.finished = this.process.exited.then((result) => {
      if (this.closed || this.failed) return;
      if (result.code !== 0 || result.spawnError) {
        // A signal (killed, crashed) or a missing binary says more than ffmpeg's (then empty) diagnostics.
        const reason = result.spawnError || result.signal ? describeExit(result) : this.process.errorText;
        this.fail(new Error(`the target audio encoder stopped: ${reason}`));
        return;
      }
      try {
        const rest = this.reader.end();
        if (rest.length > 0) this.listener.onUnits(rest);
      } catch (error) {
        this.fail(error as Error);
      }
    });
  }

  write(pcm: Buffer): void {
    if (!this.closed && !this.failed) this.process.write(pcm);
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
    if (this.closed || this.failed) return;
    try {
      const units = this.reader.push(bytes);
      if (units.length > 0) this.listener.onUnits(units);
    } catch (error) {
      this.fail(error as Error);
      this.process.kill();
    }
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.listener.onError(error);
  }
}

export class FfmpegAudioEncoderFactory implements AudioEncoderFactory {
  create(format: TargetAudioFormat, inputSampleRate: number, listener: EncodedAudioListener): AudioEncoder {
    return new FfmpegAudioEncoder(format, inputSampleRate, listener);
  }
}
