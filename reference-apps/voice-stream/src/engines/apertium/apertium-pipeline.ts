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
 * without unknown-word marks (`$1` = `-n`, like `apertium -u`). Each stage is followed by `kill 0`: when any
 * stage dies (crash, OOM killer, an operator's kill) the whole process group goes with it, so the shell
 * exits at once and the pipeline is seen dead instead of silently swallowing requests.
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
      const command = space < 0 ? `${trimmed} -z` : `${trimmed.slice(0, space)} -z${trimmed.slice(space)}`;
      return `{ ${command}; kill 0; }`;
    })
    .join(` | ${NUL_PADDER} | `);
}

/** A pipeline that dies sooner than this after starting is not restarted ahead of the next request (no crash loop). */
const EAGER_RESTART_MIN_UPTIME_MS = 1000;

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
 *
 * The pipeline runs in its own process group. If it dies, the requests in flight are rejected (their sessions
 * end with a translation error) and a new pipeline is started at once for everyone else.
 */
export class ApertiumPipeline {
  private child: ChildProcessWithoutNullStreams | undefined;
  private startedAt = 0;
  private readonly pending = new Map<number, PendingRequest>();
  private nextId = 1;
  private output = '';
  private stderr = '';
  private closed = false;
  private restarts = 0;

  constructor(
    readonly mode: string,
    private readonly modesDirectory = APERTIUM_MODES_DIRECTORY,
  ) {}

  translate(text: string): Promise<string> {
    const clean = text.replace(/[\0-\x1f]+/g, ' ').trim();
    if (clean === '') return Promise.resolve('');
    if (this.closed) return Promise.reject(new Error(`apertium ${this.mode} is closed`));
    const child = this.child ?? this.startProcess();
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stopProcess(new Error(`apertium ${this.mode} did not answer within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin.write(`[vs${id}]${clean.replace(SPECIAL, (character) => `\\${character}`)}\0`);
    });
  }

  /** Starts the process ahead of the first request (loading the dictionaries takes ~0.3 s). */
  start(): void {
    if (!this.child && !this.closed) this.startProcess();
  }

  /** Process id of the running pipeline's shell (its process group), for diagnostics. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How many times the pipeline was restarted after dying. */
  get restartCount(): number {
    return this.restarts;
  }

  close(): void {
    this.closed = true;
    this.stopProcess(new Error('translator closed'));
  }

  private startProcess(): ChildProcessWithoutNullStreams {
    // detached: a process group of its own, so that `kill 0` in a stage and our kill reach every stage.
    const child = spawn('sh', ['-c', nullFlushCommand(this.mode, this.modesDirectory)], {
      stdio: 'pipe',
      detached: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    this.output = '';
    this.stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      if (this.child === child) this.onOutput(text);
    });
    child.stderr.on('data', (bytes: Buffer) => {
      this.stderr = (this.stderr + bytes.toString()).slice(-1000);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      if (this.child === child) this.stopProcess(new Error(`apertium ${this.mode} could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      const uptime = Date.now() - this.startedAt;
      this.stopProcess(new Error(`the apertium ${this.mode} pipeline ${how}: ${this.stderr.trim() || 'a stage died'}`));
      // Other sessions keep translating: start the replacement now rather than on their next sentence.
      if (!this.closed && uptime >= EAGER_RESTART_MIN_UPTIME_MS) {
        this.restarts += 1;
        this.startProcess();
      }
    });
    // The pipeline must not keep an otherwise finished process alive.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr])
      (stream as unknown as { unref?: () => void }).unref?.();
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

  /** Kills the whole pipeline (every stage) and rejects the requests in flight with `error`. */
  private stopProcess(error: Error): void {
    const child = this.child;
    this.child = undefined;
    if (child?.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    child?.stdin.destroy();
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
