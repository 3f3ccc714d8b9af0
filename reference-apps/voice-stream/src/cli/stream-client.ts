#!/usr/bin/env node
/**
 * Streams an audio file to the voice API at real-time pace and prints live captions:
 *   npm run -w voice-stream client -- speech.wav --to es,fr [--speak es --save out.webm]
 * Options: --url (default VOICE_URL or http://127.0.0.1:8083), --key (default VOICE_API_KEY),
 * --format json|msgpack, --speed <x real time, at most 2>. Any file ffmpeg reads is accepted: it is decoded
 * locally to PCM s16le 16 kHz, the format a browser or telephony client would send.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CaptionPrinter } from './client/caption-printer';
import { requestSession, streamPcm, VoiceStreamConnection, type StreamMessage } from './client/voice-stream-client';

const usage =
  'usage: client <audio file> --to es,fr [--speak es] [--save out.webm] [--url http://127.0.0.1:8083] [--key <api key>] [--format json|msgpack] [--speed 1]';

const OPTIONS = {
  to: { type: 'string' },
  speak: { type: 'string' },
  save: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  format: { type: 'string' },
  speed: { type: 'string' },
} as const;

export async function runStreamClient(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    // Unknown flags and flags without their value are errors, with node:util's message.
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`client: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  const flags = parsed.values;
  const file = parsed.positionals[0];
  const key = flags.key ?? process.env.VOICE_API_KEY;
  if (!file || !key) {
    console.error(
      `${usage}\n${!key ? 'An API key is needed: --key or VOICE_API_KEY (create one: npm run -w voice-stream keys -- create <label>)' : ''}`,
    );
    return 2;
  }
  const url = flags.url ?? process.env.VOICE_URL ?? 'http://127.0.0.1:8083';
  const targets = (flags.to ?? '')
    .split(',')
    .map((language) => language.trim())
    .filter(Boolean);
  const speak = flags.speak;
  const save = flags.save;
  const format = flags.format === 'msgpack' ? 'msgpack' : 'json';
  const speed = Math.min(2, Math.max(0.1, Number(flags.speed ?? '1') || 1));

  let pcm: Buffer;
  try {
    pcm = execFileSync(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
      { maxBuffer: 1024 * 1024 * 1024 },
    );
  } catch (error) {
    console.error(`client: cannot read ${file}: ${(error as Error).message.split('\n')[0]}`);
    return 1;
  }
  const session = await requestSession(url, key, {
    source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
    message_format: format,
    target_languages: targets,
    ...(speak ? { target_media_languages: [speak] } : {}),
  });
  const printer = new CaptionPrinter();
  const media: Buffer[] = [];
  let failed = false;
  const connection = await VoiceStreamConnection.open(session, format, (message: StreamMessage) => {
    printer.show(message);
    if (message.target_media_chunk) media.push(...(message.target_media_chunk.data as Buffer[]));
    if (message.error) failed = true;
  });
  console.log(
    `streaming ${(pcm.length / 32000).toFixed(1)} s of ${file} at ${speed}x real time (session ${session.session_id})`,
  );
  await streamPcm(connection, pcm, 16000, 100, speed);
  if (save && media.length > 0) {
    writeFileSync(save, Buffer.concat(media));
    console.log(`translated speech saved to ${save}`);
  }
  return failed ? 1 : 0;
}

if (require.main === module) {
  runStreamClient(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`client: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
