#!/usr/bin/env node
/**
 * How many simultaneous real-time English sessions (one target language, transcripts only) this machine
 * sustains with the end of a phrase to its concluded translation at p95 under 1.5 s.
 *
 *   npm run -w voice-stream capacity -- [--from 1] [--to 8] [--target es] [--json results.json]
 *
 * Starts the server in this process, then for N = from..to runs N clients at once over WebSocket, each
 * streaming flite speech (three sentences with 1 s pauses) as a live microphone would: PCM s16le 16 kHz,
 * each 100 ms chunk sent when its 100 ms have passed. Latency of a phrase = arrival of its concluded target
 * segment - (stream start + the segment's end_time). Stops at the first N whose p95 exceeds the bound or
 * whose sessions fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { readFlag } from 'app-support';
import { requestSession, VoiceStreamConnection, type StreamMessage } from '../client/voice-stream-client';
import { parseWav } from '../media/wav';
import { startVoiceServer } from '../server/voice-server';

const BOUND_MS = 1500;
const SENTENCES = [
  "I would like to book a table for two people at seven o'clock.",
  'Please send me the report before the meeting tomorrow morning.',
  'Can you help me find the nearest hospital?',
];

interface RoundResult {
  sessions: number;
  phrases: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  cpuSecondsPerAudioSecond: number;
  loadAverage: number;
}

function speech(): Buffer {
  const directory = mkdtempSync(path.join(tmpdir(), 'voice-bench-'));
  try {
    const silence = Buffer.alloc(32000);
    const parts: Buffer[] = [silence];
    SENTENCES.forEach((sentence, index) => {
      const file = path.join(directory, `${index}.wav`);
      execFileSync('flite', ['-voice', 'rms', '-t', sentence, '-o', file]);
      parts.push(Buffer.from(parseWav(readFileSync(file)).pcm), silence);
    });
    return Buffer.concat(parts);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function runClient(baseUrl: string, key: string, target: string, pcm: Buffer, latencies: number[]): Promise<boolean> {
  const session = await requestSession(baseUrl, key, { source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000', target_languages: [target] });
  let start = 0;
  let failed = false;
  const connection = await VoiceStreamConnection.open(session, 'json', (message: StreamMessage) => {
    const update = message.target_transcript_update;
    if (update) for (const segment of update.concluded) latencies.push(performance.now() - (start + segment.end_time));
    if (message.error) failed = true;
  });
  start = performance.now();
  for (let offset = 0, index = 1; offset < pcm.length && connection.isOpen; offset += 3200, index += 1) {
    // A live microphone hands over a chunk once its 100 ms have been spoken.
    const wait = start + index * 100 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    connection.sendAudio(pcm.subarray(offset, offset + 3200));
  }
  connection.endAudio();
  const closed = await connection.finished;
  return !failed && closed.code === 1000;
}

async function main(argv: readonly string[]): Promise<number> {
  const from = Number(readFlag(argv, 'from') ?? '1');
  const to = Number(readFlag(argv, 'to') ?? '8');
  const target = readFlag(argv, 'target') ?? 'es';
  const jsonFile = readFlag(argv, 'json');
  const pcm = speech();
  const audioSeconds = pcm.length / 32000;
  const server = await startVoiceServer({ registry: { maxSessionsPerKey: 1000 }, maxSessions: Math.max(to, 1) });
  const key = await server.createApiKey('capacity benchmark');
  const results: RoundResult[] = [];
  let sustained = 0;
  console.log(`voice-stream capacity: ${audioSeconds.toFixed(1)} s of speech per session, target ${target}, ${cpus().length} CPUs, bound p95 < ${BOUND_MS} ms`);
  try {
    for (let sessions = from; sessions <= to; sessions += 1) {
      const latencies: number[] = [];
      const cpuBefore = process.cpuUsage();
      const outcomes = await Promise.all(
        Array.from({ length: sessions }, async (_, index) => {
          // Staggered starts, as independent users would connect.
          await new Promise((resolve) => setTimeout(resolve, index * 300));
          return runClient(server.url, key, target, pcm, latencies).catch(() => false);
        }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      latencies.sort((a, b) => a - b);
      const result: RoundResult = {
        sessions,
        phrases: latencies.length,
        failures: outcomes.filter((ok) => !ok).length,
        p50Ms: Math.round(percentile(latencies, 0.5)),
        p95Ms: Math.round(percentile(latencies, 0.95)),
        maxMs: Math.round(latencies.at(-1) ?? Number.NaN),
        cpuSecondsPerAudioSecond: Number(((cpu.user + cpu.system) / 1e6 / (audioSeconds * sessions)).toFixed(3)),
        loadAverage: Number(loadavg()[0].toFixed(2)),
      };
      results.push(result);
      console.log(
        `${String(sessions).padStart(2)} sessions: ${result.phrases} phrases, p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, max ${result.maxMs} ms, ` +
          `failures ${result.failures}, in-process CPU ${result.cpuSecondsPerAudioSecond} s per audio s, load ${result.loadAverage}`,
      );
      if (result.failures > 0 || !(result.p95Ms < BOUND_MS)) break;
      sustained = sessions;
    }
  } finally {
    await server.close();
  }
  console.log(`sustained: ${sustained} simultaneous real-time sessions with p95 < ${BOUND_MS} ms (target: at least 4)`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ boundMs: BOUND_MS, target, audioSeconds, sustained, results }, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`capacity: ${(error as Error).message}`);
    process.exit(1);
  },
);
