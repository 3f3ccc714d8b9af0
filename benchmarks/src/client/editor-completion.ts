/**
 * Editor completion time on a typed client, as an editor sees it: TypeScript's tsserver (`typescript/lib/tsserver.js`,
 * what VS Code runs) over stdio, the caller file opened, then `completionInfo` requests at given points. The first
 * request after opening pays for building the program (reading the libraries and the client); the repeated ones are
 * what each keystroke costs once the program is built, with and without an edit of the file in between.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';

/** Where to ask for completions: a 1-based line and column, as tsserver counts them. */
export interface CompletionPoint {
  label: string;
  line: number;
  offset: number;
}

export interface CompletionFigures {
  /** `open` then the first completion (the program is built for it). */
  firstMs: number;
  /** Per point: entries the completion answered, and the median of the repeated requests. */
  points: Record<string, { entries: number; repeatedMedianMs: number; afterEditMedianMs: number }>;
}

interface Message {
  type: string;
  request_seq?: number;
  success?: boolean;
  body?: { entries?: unknown[] };
  message?: string;
}

/** A tsserver over stdio: requests by sequence number, answers read from its `Content-Length` framed output. */
class TsServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private seq = 0;
  private readonly pending = new Map<number, (m: Message) => void>();

  constructor(tsserver: string, cwd: string) {
    this.child = spawn(process.execPath, [tsserver, '--disableAutomaticTypingAcquisition', '--locale', 'en'], {
      cwd,
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString()) as Message;
      this.buffer = this.buffer.subarray(start + length);
      if (message.type === 'response' && message.request_seq !== undefined) {
        this.pending.get(message.request_seq)?.(message);
        this.pending.delete(message.request_seq);
      }
    }
  }

  /** Sends a request; resolves with its response (`open` and `change` have none: pass `answered: false`). */
  request(command: string, args: unknown, answered = true): Promise<Message | undefined> {
    const seq = ++this.seq;
    this.child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    if (!answered) return Promise.resolve(undefined);
    return new Promise((resolve) => this.pending.set(seq, resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
      this.child.kill();
    });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Times completions at `points` of `file` (a project with a tsconfig.json in its folder). */
export async function completionTimes(
  tsserver: string,
  file: string,
  points: CompletionPoint[],
  repeats = 10,
): Promise<CompletionFigures> {
  const server = new TsServer(tsserver, fs.realpathSync(`${file}/..`));
  try {
    const complete = async (p: CompletionPoint) => {
      const start = process.hrtime.bigint();
      const answer = await server.request('completionInfo', { file, line: p.line, offset: p.offset });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!answer?.success) throw new Error(`completionInfo at ${p.label}: ${answer?.message}`);
      return { ms, entries: answer.body?.entries?.length ?? 0 };
    };
    const opened = process.hrtime.bigint();
    await server.request('open', { file }, false);
    await complete(points[0]!);
    const firstMs = Number(process.hrtime.bigint() - opened) / 1e6;
    const figures: CompletionFigures = { firstMs: Math.round(firstMs), points: {} };
    for (const p of points) {
      const repeated: number[] = [];
      const afterEdit: number[] = [];
      let entries = 0;
      for (let i = 0; i < repeats; i++) {
        const c = await complete(p);
        repeated.push(c.ms);
        entries = c.entries;
      }
      for (let i = 0; i < repeats; i++) {
        // A keystroke elsewhere in the file (a space typed at the end of the first line): a new program version.
        await server.request(
          'change',
          { file, line: 1, offset: 1, endLine: 1, endOffset: 1, insertString: ' ' },
          false,
        );
        afterEdit.push((await complete(p)).ms);
        await server.request('change', { file, line: 1, offset: 1, endLine: 1, endOffset: 2, insertString: '' }, false);
      }
      figures.points[p.label] = {
        entries,
        repeatedMedianMs: Number(median(repeated).toFixed(1)),
        afterEditMedianMs: Number(median(afterEdit).toFixed(1)),
      };
    }
    return figures;
  } finally {
    await server.close();
  }
}
