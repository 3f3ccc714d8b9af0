import type { StreamMessage } from './voice-stream-client';

/**
 * Live captions on a terminal: concluded segments as lines, the tentative text of each transcript on a
 * status line that is rewritten in place (on a TTY; plain lines otherwise).
 */
export class CaptionPrinter {
  private status = '';

  constructor(private readonly out: NodeJS.WriteStream = process.stdout) {}

  show(message: StreamMessage): void {
    const source = message.source_transcript_update;
    const target = message.target_transcript_update;
    if (source) this.update('en', source.concluded, source.tentative);
    if (target) this.update(target.language, target.concluded, target.tentative);
    if (message.error)
      this.line(`error ${message.error.error_code}/${message.error.reason_code}: ${message.error.error_message}`);
    if (message.end_of_stream) this.line('end of stream');
  }

  private update(
    language: string,
    concluded: { text: string; start_time: number; end_time: number }[],
    tentative: { text: string }[],
  ): void {
    for (const segment of concluded)
      this.line(
        `[${language} ${(segment.start_time / 1000).toFixed(1)}-${(segment.end_time / 1000).toFixed(1)}s] ${segment.text.trim()}`,
      );
    const live = tentative.map((segment) => segment.text.trim()).join(' ');
    if (live && this.out.isTTY) this.setStatus(`[${language} ...] ${live}`);
  }

  private line(text: string): void {
    this.setStatus('');
    this.out.write(`${text}\n`);
  }

  private setStatus(text: string): void {
    if (!this.out.isTTY) return;
    const width = this.out.columns ?? 100;
    const shown = text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text;
    this.out.write(`\r${' '.repeat(Math.min(width - 1, this.status.length))}\r${shown}`);
    this.status = shown;
  }
}
