/**
 * voice-stream: the voice API as it ships (`node reference-apps/voice-stream/dist/src/main.js`, offline engines:
 * ffmpeg, PocketSphinx, Apertium, flite/espeak-ng) with a fresh SQLite key database, keys from its own CLI.
 * Beside wrk's session-API mix (lua/soak/voice-stream.lua, at a modest rate so the live sessions keep their
 * real-time pace on two cores), a few WebSocket sessions stream real speech (flite) at real-time pace and are
 * started again as they end: transcripts into Spanish and French, and every other session also spoken Spanish.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../../paths';
import { commandExists } from '../../setup/run-command';
import { listeningPort, startAppProcess } from '../process/app-process';
import { runNodeCli, valueAfter } from '../process/cli-command';
import type { SoakTarget } from '../soak-target';
import { speakSentences } from '../voice/speech';
import { StreamingLoad } from '../voice/streaming-load';
import { requestSession, sessionRequestBody } from '../voice/streaming-session';

const APP_DIR = path.join(REPOSITORY_ROOT, 'reference-apps', 'voice-stream');
/** The Node flags the app's own `npm start` uses (`config.nodeFlags` in its package.json): the app as it ships. */
function shippedNodeFlags(): string[] {
  const flags = (
    JSON.parse(fs.readFileSync(path.join(APP_DIR, 'package.json'), 'utf8')) as { config?: { nodeFlags?: unknown } }
  ).config?.nodeFlags;
  return typeof flags === 'string' ? flags.split(/\s+/).filter(Boolean) : [];
}
const MAIN = path.join(APP_DIR, 'dist', 'src', 'main.js');
const KEYS_CLI = path.join(APP_DIR, 'dist', 'src', 'cli', 'keys-cli.js');
const TARGET_LANGUAGES = ['es', 'fr'];
/** The rotation threads' session request (never streamed: it only holds the tokens). */
const ROTATION_LANGUAGES = ['es'];

async function createKeys(database: string, labels: string[]): Promise<string[]> {
  const create = async (label: string) =>
    valueAfter((await runNodeCli(KEYS_CLI, ['create', label, '--database', database])).stdout, 'API key:');
  // The first run creates the database; the others only add rows, so they can run side by side.
  const first = await create(labels[0]);
  return [first, ...(await Promise.all(labels.slice(1).map(create)))];
}

/** Rewrites the token of every thread whose rotation was lost (a thread line "n\ttoken=" with no token). */
async function replaceLostTokens(stateFile: string, baseUrl: string, keys: string[], body: string): Promise<number> {
  if (!fs.existsSync(stateFile)) return 0;
  const lines = fs.readFileSync(stateFile, 'utf8').split('\n').filter(Boolean);
  let replaced = 0;
  const updated = await Promise.all(
    lines.map(async (line) => {
      const match = /^(\d+)\ttoken=(.*)$/.exec(line);
      if (match?.[2] !== '') return line;
      replaced++;
      const session = await requestSession(baseUrl, keys[Number(match[1]) - 1], body);
      return `${match[1]}\ttoken=${session.token}`;
    }),
  );
  fs.writeFileSync(stateFile, `${updated.join('\n')}\n`);
  return replaced;
}

export const voiceStream: SoakTarget = {
  id: 'voice-stream',
  label: 'session API and live speech streams',
  // 200 req/s of session API: far above what a booth of users makes, low enough to leave the engines their cores.
  defaultLoad: { threads: 8, connections: 8, pipeline: 1, requestsPerSecLimit: 200 },
  pinServerByDefault: false,
  thresholds: {
    values: { maxRiseMB: 48 },
    reason:
      'each of the two recognition workers frees its PocketSphinx decoder (about 24 MB of anonymous memory, the steps ' +
      'seen in RssAnon) after every session and loads a fresh one, so a sample can catch zero, one or two decoders loaded',
  },
  unavailableReason() {
    if (!fs.existsSync(MAIN) || !fs.existsSync(KEYS_CLI))
      return `${MAIN} is not built: npx tsc -b reference-apps/voice-stream`;
    for (const tool of ['flite', 'ffmpeg', 'apertium'])
      if (!commandExists(tool)) return `${tool} is missing (see .ci/preflight.sh)`;
    return undefined;
  },

  async prepare(context) {
    const database = path.join(context.workDir, 'voice-stream.db');
    const threads = context.load.connections;
    const sessions = context.streamingSessions;
    // One key per wrk thread and per streaming slot: a key may hold 5 open sessions, and each holds one.
    const keys = await createKeys(database, [
      ...Array.from({ length: threads }, (_, index) => `soak session API ${index + 1}`),
      ...Array.from({ length: sessions }, (_, index) => `soak live stream ${index + 1}`),
    ]);
    const rotationKeys = keys.slice(0, threads);
    const streamKeys = keys.slice(threads);
    const speech = speakSentences(context.workDir);

    const server = await startAppProcess({
      name: 'voice-stream',
      // The app's own session limit (3 per core by default) must not refuse the soak's streams.
      // The session rate limit stays on (its memory is part of what a soak watches), far above the sessions the load
      // asks for; the access log off (a line per request would measure the pipe).
      args: [
        MAIN,
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--database',
        database,
        '--max-sessions',
        String(sessions + 4),
        '--session-rate-limit',
        '10000000',
        '--log-level',
        'warn',
      ],
      // Flags given to the soak come after the app's own, so they win.
      nodeFlags: [...shippedNodeFlags(), ...context.nodeFlags],
      cwd: context.serverCwd,
      cpu: context.serverCpu,
      portFromLine: listeningPort,
      timeoutMs: 60_000,
    });
    try {
      const base = server.baseUrl;
      const rotationBody = sessionRequestBody({ speech, targetLanguages: ROTATION_LANGUAGES });
      const tokens = await Promise.all(
        rotationKeys.map(async (key) => (await requestSession(base, key, rotationBody)).token),
      );
      // "de" is in the API's list but this offline server has no engine for it: 400 unsupported_target_language.
      const refusedBody = sessionRequestBody({ speech, targetLanguages: ['de'] });
      const stateFile = path.join(context.workDir, 'wrk-state.txt');
      const streaming = new StreamingLoad(sessions, (slot, round) => ({
        baseUrl: base,
        apiKey: streamKeys[slot],
        targetLanguages: TARGET_LANGUAGES,
        mediaLanguage: (slot + round) % 2 === 1 ? 'es' : undefined,
        speech,
        chunkMs: 100,
        graceMs: 60_000,
      }));
      return {
        server,
        description:
          `${sessions} simultaneous WebSocket sessions streaming ${speech.seconds.toFixed(1)} s of flite speech (PCM 16 kHz, 100 ms chunks at real-time pace), ` +
          `transcribed and translated into ${TARGET_LANGUAGES.join(' and ')} (every other session also spoken Spanish), each started again when it ends; beside them wrk on the ` +
          `session API: reconnection-token rotation 55%, web page 25%, refused session requests 20% (unsupported language 400, no key 401)`,
        sideLoad: streaming,
        async beforeInterval() {
          const replaced = await replaceLostTokens(stateFile, base, rotationKeys, rotationBody);
          if (replaced)
            context.log(
              `soak voice-stream: ${replaced} rotation session(s) lost their token at the end of an interval; new sessions requested`,
            );
        },
        plan: {
          script: 'voice-stream.lua',
          url: base,
          threads,
          connections: threads,
          pipeline: 1,
          requestsPerSecLimit: context.load.requestsPerSecLimit,
          scriptArgs: [
            ...rotationKeys.map((key) => `key=${key}`),
            ...tokens.map((token) => `token=${token}`),
            `refused_body=${refusedBody}`,
          ],
          stateFile,
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};
