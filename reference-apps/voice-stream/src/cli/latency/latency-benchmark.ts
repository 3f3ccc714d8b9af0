#!/usr/bin/env node
/**
 * Latency of the voice server with 1, 2, 4... simultaneous real-time sessions (issue 23 §2):
 *
 *   npm run -w voice-stream latency -- [--sessions 1,2,4] [--target es] [--json results.json]
 *
 * Starts the server as `npm start` runs it (its own process, so its memory can be read), then for each N runs
 * N clients at once, each streaming flite speech (five sentences, 1 s pauses) as a live microphone: PCM s16le
 * 16 kHz, each 100 ms chunk sent once its 100 ms have been spoken. The end of each spoken phrase is known from
 * the audio itself; per phrase it measures how long after that end arrive its concluded source segment, its
 * concluded translation and its first target audio chunk; how long after the phrase starts its first tentative
 * update comes, and the longest wait between tentative updates from then to the phrase's end. Also the
 * server's peak RSS during the round, and the CPU time the server and its child processes spent per session
 * and second of speech (the share of a core one session needs, whatever the machine's load).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiKeyStore } from '../../storage/api-key-store';
import { requestSession, VoiceStreamConnection, type StreamMessage } from '../client/voice-stream-client';
import { TUNING_SENTENCES } from '../eval/eval-sentences';
import { parseWav } from '../../domain/media/wav';
import { phraseLatencies, summarize, type PhraseTiming, type SessionLog } from './latency-measures';

const PAUSE_SAMPLES = 16000; // 1 s
const CHUNK_BYTES = 3200; // 100 ms
const MAIN = path.resolve(__dirname, '..', '..', 'main.js');

/** The speech of one session and where each phrase lies (ms from the first sample). */
function speech(directory: string): { pcm: Buffer; phrases: PhraseTiming[] } {
  const silence = Buffer.alloc(PAUSE_SAMPLES * 2);
  const parts: Buffer[] = [silence];
  const phrases: PhraseTiming[] = [];
  let samples = PAUSE_SAMPLES;
  TUNING_SENTENCES.slice(0, 5).forEach((sentence, index) => {
    const file = path.join(directory, `${index}.wav`);
    execFileSync('flite', ['-voice', 'rms', '-t', sentence, '-o', file]);
    const pcm = Buffer.from(parseWav(readFileSync(file)).pcm);
    phrases.push({ startMs: (samples / 16000) * 1000, endMs: ((samples + pcm.length / 2) / 16000) * 1000 });
    samples += pcm.length / 2 + PAUSE_SAMPLES;
    parts.push(pcm, silence);
  });
  return { pcm: Buffer.concat(parts), phrases };
}

interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** `node dist/src/main.js` with the app's Node flags on a free port; resolves once it listens. */
async function startServer(database: string, maxSessions: number): Promise<ServerProcess> {
  const args = [
    '--max-semi-space-size=4',
    '--min-semi-space-size=4',
    MAIN,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--database',
    database,
    '--max-sessions',
    String(maxSessions),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onOutput = (bytes: Buffer) => {
      output += bytes.toString('utf8');
      const listening = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (listening && /session requests at/.test(output)) resolve(Number(listening[1]));
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** utime, stime, cutime, cstime of one process (clock ticks), and its parent, from /proc/PID/stat. */
function processTimes(pid: number): { parent: number; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      parent: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by the server and every process below it (ffmpeg, Apertium's pipelines, espeak-ng):
 * live processes' own time plus what their exited children left in cutime/cstime. The difference between two
 * readings is the CPU the round cost, whatever else the machine was doing.
 */
function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = processTimes(Number(entry));
    if (!times) continue;
    parents.set(Number(entry), times.parent);
    ticks.set(Number(entry), times.ticks);
  }
  const inTree = (pid: number): boolean => {
    for (let current = pid, hops = 0; current > 1 && hops < 64; current = parents.get(current) ?? 0, hops += 1)
      if (current === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, value] of ticks) if (inTree(pid)) total += value;
  return total / CLOCK_TICKS_PER_SECOND;
}

/** sysconf(_SC_CLK_TCK) on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function runClient(baseUrl: string, key: string, target: string, pcm: Buffer): Promise<SessionLog> {
  const session = await requestSession(baseUrl, key, {
    source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
    target_languages: [target],
    target_media_languages: [target],
  });
  const log: SessionLog = { startedAt: 0, messages: [], failed: false };
  const connection = await VoiceStreamConnection.open(session, 'json', (message: StreamMessage) => {
    log.messages.push({ at: performance.now(), message });
    if (message.error) log.failed = true;
  });
  log.startedAt = performance.now();
  for (let offset = 0, index = 1; offset < pcm.length && connection.isOpen; offset += CHUNK_BYTES, index += 1) {
    // A live microphone hands over a chunk once its 100 ms have been spoken.
    const wait = log.startedAt + index * 100 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    connection.sendAudio(pcm.subarray(offset, offset + CHUNK_BYTES));
  }
  connection.endAudio();
  if ((await connection.finished).code !== 1000) log.failed = true;
  return log;
}

async function main(argv: readonly string[]): Promise<number> {
  // Unknown flags and flags without their value are errors (node:util's message, exit 1).
  const flags = parseArgs({
    args: [...argv],
    options: {
      sessions: { type: 'string', default: '1,2,4' },
      target: { type: 'string', default: 'es' },
      json: { type: 'string' },
    },
    strict: true,
  }).values;
  const rounds = flags.sessions.split(',').map(Number);
  const target = flags.target;
  const jsonFile = flags.json;
  const directory = mkdtempSync(path.join(tmpdir(), 'voice-latency-'));
  const { pcm, phrases } = speech(directory);
  const database = path.join(directory, 'voice.db');
  const keys = await ApiKeyStore.open(database);
  // A key holds at most 5 open sessions: one key per five clients.
  const clientKeys: string[] = [];
  for (let index = 0; index < Math.ceil(Math.max(...rounds) / 5); index += 1)
    clientKeys.push((await keys.create(`latency benchmark ${index}`)).key);
  await keys.close();
  const server = await startServer(database, Math.max(...rounds));
  const results: Array<Record<string, unknown>> = [];
  console.log(
    `voice-stream latency: ${(pcm.length / 32000).toFixed(1)} s of speech (${phrases.length} phrases) per session, target ${target} (text and speech)`,
  );
  try {
    for (const sessions of rounds) {
      let peakRssMb = residentMb(server.pid);
      const cpuBefore = treeCpuSeconds(server.pid);
      const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, residentMb(server.pid))), 200);
      const logs = await Promise.all(
        Array.from({ length: sessions }, async (_, index) => {
          // Staggered starts, as independent speakers would connect.
          await new Promise((resolve) => setTimeout(resolve, index * 300));
          return runClient(server.url, clientKeys[Math.floor(index / 5)], target, pcm).catch(
            (): SessionLog => ({ startedAt: 0, messages: [], failed: true }),
          );
        }),
      );
      clearInterval(sampler);
      // Per session and second of speech streamed: the share of one core a session needs.
      const cpuPerSessionSecond = (treeCpuSeconds(server.pid) - cpuBefore) / sessions / (pcm.length / 32000);
      const summary = summarize(logs.map((log) => phraseLatencies(log, phrases, target)));
      const loadAverage = Number(loadavg()[0].toFixed(2));
      results.push({
        sessions,
        ...summary,
        peakRssMb: Math.round(peakRssMb),
        cpuPerSessionSecond: Number(cpuPerSessionSecond.toFixed(3)),
        loadAverage,
      });
      console.log(
        `${String(sessions).padStart(2)} sessions: ${summary.phrases} phrases (${summary.missed} without translation), ${summary.failures} failed sessions; ` +
          `end of phrase -> source p50/p95 ${summary.source.p50}/${summary.source.p95} ms, translation ${summary.translation.p50}/${summary.translation.p95} ms, ` +
          `first audio ${summary.audio.p50}/${summary.audio.p95} ms; first tentative p50/p95 ${summary.firstTentative.p50}/${summary.firstTentative.p95} ms ` +
          `after the phrase starts, then tentative gap p95/max ${summary.tentativeGap.p95}/${summary.tentativeGap.max} ms; ` +
          `server RSS peak ${Math.round(peakRssMb)} MB; server CPU ${cpuPerSessionSecond.toFixed(3)} s per session per second of speech; load ${loadAverage}`,
      );
    }
  } finally {
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ target, phrases, results }, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`latency: ${(error as Error).message}`);
    process.exit(1);
  },
);
