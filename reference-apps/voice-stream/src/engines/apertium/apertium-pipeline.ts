import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const APERTIUM_MODES_DIRECTORY = process.env.VOICE_STREAM_APERTIUM_MODES ?? '/usr/share/apertium/modes';

/** A request that does not come back in this time restarts the pipeline. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Apertium stream-format characters that must be escaped in plain text. */
const SPECIAL = /[\\[\]^$/@<>{}]/g;

/**
 * Several stages of Debian 12's Apertium (`lt-proc -b`, `apertium-tagger` after `cg-proc`) only flush a
 * NUL-terminated block once they have read one more character. Between stages this filter drops empty
 * blocks and follows every block with a second NUL, so each stage always has that one character to read.
 */
const NUL_PADDER = "sed -u -z '/^$/d; s/$/\\x00/'";

/**
 * Builds the shell pipeline of an Apertium mode with every stage in null-flush mode (`-z`), generation
 * without unknown-word marks (`$1` = `-n`, like `apertium -u`).
 */
export function nullFlushCommand(mode: string, modesDirectory = APERTIUM_MODES_DIRECTORY): string {
  const definition = readFileSync(path.join(modesDirectory, `${mode}.mode`), 'utf8').trim();
  return definition
    .replace(/\$1/g, '-n')
    .replace(/\$2/g, '')
    .split('|')
    .map((stage) => {
      const trimmed = stage.trim();
      const space = trimmed.indexOf(' ');
      return space < 0 ? `${trimmed} -z` : `${trimmed.slice(0, space)} -z${trimmed.slice(space)}`;
    })
    .join(` | ${NUL_PADDER} | `);
}

interface PendingRequest {
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One long-running Apertium pipeline for a language pair, shared by all sessions.
 *
 * Each request is written as `[vs<id>]` (an Apertium superblank, passed through untouched) + escaped text
 * + NUL, which flushes every stage (with NUL_PADDER between stages). Answers are
 * matched by their marker, so the extra empty outputs are skipped. This turns the ~300 ms per-call start-up of
 * `apertium` into a few milliseconds per sentence.
 */
export class ApertiumPipeline {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, PendingRequest>();
  private nextId = 1;
  private output = '';
  private stderr = '';

  constructor(
    readonly mode: string,
    private readonly modesDirectory = APERTIUM_MODES_DIRECTORY,
  ) {}

  translate(text: string): Promise<string> {
    const clean = text.replace(/[\0-\x1f]+/g, ' ').trim();
    if (clean === '') return Promise.resolve('');
    const child = this.child ?? this.startProcess();
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.failAll(new Error(`apertium ${this.mode} did not answer within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin.write(`[vs${id}]${clean.replace(SPECIAL, (character) => `\\${character}`)}\0`);
    });
  }

  /** Starts the process ahead of the first request (loading the dictionaries takes ~0.3 s). */
  start(): void {
    if (!this.child) this.startProcess();
  }

  close(): void {
    this.failAll(new Error('translator closed'));
  }

  private startProcess(): ChildProcessWithoutNullStreams {
    const child = spawn('sh', ['-c', nullFlushCommand(this.mode, this.modesDirectory)], { stdio: 'pipe' });
    this.child = child;
    this.output = '';
    this.stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.onOutput(text));
    child.stderr.on('data', (bytes: Buffer) => {
      this.stderr = (this.stderr + bytes.toString()).slice(-1000);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => this.failAll(new Error(`apertium ${this.mode} could not start: ${error.message}`)));
    child.on('close', (code) => {
      if (this.child === child) this.failAll(new Error(`apertium ${this.mode} exited (${code}): ${this.stderr.trim() || 'no message'}`));
    });
    // The pipeline must not keep an otherwise finished process alive.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    return child;
  }

  private onOutput(text: string): void {
    this.output += text;
    let end: number;
    while ((end = this.output.indexOf('\0')) >= 0) {
      const piece = this.output.slice(0, end);
      this.output = this.output.slice(end + 1);
      const match = /^\s*\[vs(\d+)\]([\s\S]*)$/.exec(piece);
      if (!match) continue;
      const request = this.pending.get(Number(match[1]));
      if (!request) continue;
      this.pending.delete(Number(match[1]));
      clearTimeout(request.timer);
      request.resolve(unescapeApertium(match[2]));
    }
  }

  private failAll(error: Error): void {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) child.kill('SIGKILL');
    for (const request of this.pending.values()) {
      clearTimeout(request.timer);
      request.reject(error);
    }
    this.pending.clear();
  }
}

/**
 * Drops leftover unknown-word marks (unescaped `*`, `#`, `@` before a word; escaped ones are the text's
 * own characters) and turns Apertium's escaped output back into plain text.
 */
export function unescapeApertium(text: string): string {
  return text
    .replace(/(^|\s)[*#@](?=\S)/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
