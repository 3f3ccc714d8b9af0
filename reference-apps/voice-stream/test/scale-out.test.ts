import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import pg from 'pg';
import { MemorySessionRegistry } from '../src/storage/memory-session-registry';
import { PostgresSessionRegistry } from '../src/storage/postgres-session-registry';
import { MAX_TOKEN_HASHES_KEPT } from '../src/domain/registry/session-tokens';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { startInstanceProcess, type InstanceProcess } from './support/instance-process';
import { LiveStream, requestReconnection, requestSession } from './support/live-stream';
import { spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';
import { connect, refusedUpgrade } from './support/ws-client';

// Two instances on one throwaway PostgreSQL: A runs in this process, B in a process of its own (node
// dist/src/main.js, as deployed). Sessions and tokens live in PostgreSQL; streams stay on the instance
// holding the socket.

let postgres: TestPostgresDatabase;
let a: VoiceServer;
let b: InstanceProcess;
let key: string;
let database: pg.Client;

test.before(async () => {
  requireEnginePackages();
  postgres = await postgresForTests('voice_scale');
  a = await startVoiceServer({ databaseUrl: postgres.url });
  b = await startInstanceProcess(postgres.url);
  key = await a.createApiKey('scale-out tests'); // in the shared database: B knows it too
  database = new pg.Client({ connectionString: postgres.url });
  await database.connect();
});
test.after.always(async () => {
  await b?.stop('SIGKILL');
  await a?.close();
  await database?.end();
  await postgres?.close();
});

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

/** The stream address of `instance` for `token` (any instance serves any session). */
const streamOn = (instance: { url: string }, token: string) =>
  `ws://${instance.url.slice('http://'.length)}/v3/voice/realtime/connect?token=${encodeURIComponent(token)}`;

async function sessionOn(
  instance: { url: string },
  body: Record<string, unknown> = { source_media_content_type: PCM_16K },
) {
  const answer = await requestSession(instance.url, key, body);
  if (answer.status !== 200)
    throw new Error(`session request refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

test.serial('the mode follows DATABASE_URL: PostgreSQL shares sessions, SQLite keeps them in memory', async (t) => {
  t.true(a.registry instanceof PostgresSessionRegistry);
  t.regex(b.output(), /sessions in PostgreSQL, shared with every instance/);
  const directory = mkdtempSync(path.join(tmpdir(), 'voice-mode-'));
  const single = await startVoiceServer({ databaseUrl: path.join(directory, 'voice.db'), engines: a.engines });
  try {
    t.true(single.registry instanceof MemorySessionRegistry);
  } finally {
    await single.close();
    rmSync(directory, { recursive: true, force: true });
  }
  // Only token hashes are stored.
  const session = await sessionOn(a);
  const stored = await database.query('SELECT token_hash FROM voice_sessions WHERE id = $1', [session.session_id]);
  t.is(stored.rows.length, 1);
  t.not(stored.rows[0].token_hash, session.token);
  t.regex(stored.rows[0].token_hash, /^[0-9a-f]{64}$/);
});

test.serial('a session requested on A is connected and streamed on B', async (t) => {
  t.timeout(90_000);
  const session = await sessionOn(a, { source_media_content_type: PCM_16K, target_languages: ['es'] });
  const stream = await LiveStream.open(streamOn(b, session.token));
  await stream.stream(spokenPassage([TABLE_SENTENCE], 600), 3200, 50);
  t.is((await stream.closed).code, 1000);
  t.true(wordErrorRate(TABLE_SENTENCE, stream.sourceText()) <= 0.2, stream.sourceText());
  t.true(stream.targetText('es').includes('mesa'), stream.targetText('es'));
  // The finished session is gone everywhere: its token opens nothing on either instance.
  for (const instance of [a, b]) t.is((await refusedUpgrade(streamOn(instance, session.token))).status, 403);
  t.is((await database.query('SELECT 1 FROM voice_sessions WHERE id = $1', [session.session_id])).rows.length, 0);
});

test.serial('the same token on A and B at the same time: exactly one upgrade succeeds (20 races)', async (t) => {
  t.timeout(90_000);
  for (let round = 0; round < 20; round += 1) {
    const session = await sessionOn(round % 2 === 0 ? a : b);
    const attempts = await Promise.allSettled([
      connect(streamOn(a, session.token)),
      connect(streamOn(b, session.token)),
    ]);
    const opened = attempts.filter((attempt) => attempt.status === 'fulfilled');
    t.is(
      opened.length,
      1,
      `round ${round}: ${attempts.map((attempt) => (attempt.status === 'fulfilled' ? 'open' : String(attempt.reason))).join(', ')}`,
    );
    const refused = attempts.find((attempt) => attempt.status === 'rejected');
    t.regex(String(refused?.status === 'rejected' && refused.reason), /upgrade refused with 403/);
    // The second use ends the session, as the API says: the one open connection is closed too (4001).
    const winner = (opened[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof connect>>>).value;
    t.is((await winner.closed).code, 4001);
  }
  // What the refused side is told.
  const session = await sessionOn(a);
  const first = await connect(streamOn(a, session.token));
  const second = await refusedUpgrade(streamOn(b, session.token));
  t.deepEqual([second.status, JSON.parse(second.body).code], [403, 'token_already_used']);
  t.is((await first.closed).code, 4001);
});

test.serial(
  'rotation on B of a session requested and connected on A; the new token works on either, the old one ends it',
  async (t) => {
    t.timeout(90_000);
    const session = await sessionOn(a, { source_media_content_type: PCM_16K, message_format: 'msgpack' });
    const onA = await connect(streamOn(a, session.token));
    const rotated = await requestReconnection(b.url, key, session.token);
    t.is(rotated.status, 200);
    t.is(rotated.body.session_id, session.session_id);
    t.not(rotated.body.token, session.token);
    t.is(rotated.body.streaming_url, `ws://${b.url.slice('http://'.length)}/v3/voice/realtime/connect`);
    // A learns it through PostgreSQL (NOTIFY) and closes its stream.
    t.is((await onA.closed).code, 4001);
    // The new token streams on A (or anywhere): a full stream from it.
    const onAgain = await LiveStream.open(streamOn(a, rotated.body.token), 'msgpack');
    // The replaced token, presented on B, ends the session: the new stream on A is closed as well.
    const outdated = await refusedUpgrade(streamOn(b, session.token));
    t.deepEqual([outdated.status, JSON.parse(outdated.body).code], [403, 'outdated_token']);
    t.is((await onAgain.closed).code, 4001);
    t.is(
      (await requestReconnection(a.url, key, rotated.body.token)).status,
      403,
      'the session is over on every instance',
    );
  },
);

test.serial(
  'a session rotated again and again keeps only its newest token hashes in PostgreSQL; a long-forgotten token counts as unknown',
  async (t) => {
    const session = await sessionOn(a);
    let token = session.token;
    for (let round = 0; round < 40; round += 1) {
      const rotated = await requestReconnection(round % 2 === 0 ? a.url : b.url, key, token);
      t.is(rotated.status, 200, JSON.stringify(rotated.body));
      token = rotated.body.token;
    }
    const stored = await database.query('SELECT count(*)::int AS n FROM voice_session_tokens WHERE session_id = $1', [
      session.session_id,
    ]);
    t.is(stored.rows[0].n, MAX_TOKEN_HASHES_KEPT);
    // The first token is forgotten: refused as unknown, and the session lives on.
    const forgotten = await requestReconnection(a.url, key, session.token);
    t.is(forgotten.status, 403);
    t.is(forgotten.body.code, 'invalid_token');
    t.is((await requestReconnection(b.url, key, token)).status, 200);
  },
);

test.serial(
  'a reconnection on A while the stream runs on B; then the stream continues on B with the new token',
  async (t) => {
    t.timeout(90_000);
    const session = await sessionOn(b, { source_media_content_type: PCM_16K, target_languages: ['es'] });
    const onB = await connect(streamOn(b, session.token));
    const started = Date.now();
    const rotated = await requestReconnection(a.url, key, session.token);
    t.is(rotated.status, 200);
    t.is((await onB.closed).code, 4001);
    t.log(`rotation on A to close on B: ${Date.now() - started} ms`);
    const resumed = await LiveStream.open(streamOn(b, rotated.body.token));
    await resumed.stream(spokenPassage([TABLE_SENTENCE], 600), 3200, 50);
    t.log(`streamed: ${Date.now() - started} ms`);
    t.is((await resumed.closed).code, 1000);
    t.log(`closed: ${Date.now() - started} ms`);
    t.true(resumed.targetText('es').includes('mesa'));
  },
);

test.serial(
  'the open-session limit of a key counts the sessions of every instance, also under concurrent requests',
  async (t) => {
    // Two more instances with a limit of 3 sessions per key (B allows the default 5).
    const options = { databaseUrl: postgres.url, engines: a.engines, registry: { maxSessionsPerKey: 3 } };
    const [c, d] = [await startVoiceServer(options), await startVoiceServer(options)];
    try {
      const ask = (instance: { url: string }, apiKey: string) =>
        requestSession(instance.url, apiKey, { source_media_content_type: PCM_16K });
      const first = await c.createApiKey('limited');
      t.is((await ask(b, first)).status, 200);
      t.is((await ask(b, first)).status, 200);
      const third = await Promise.all([ask(c, first), ask(d, first)]);
      t.deepEqual(
        third.map((answer) => answer.status).sort(),
        [200, 429],
        'the sessions made through B count on C and D',
      );
      t.is(third.find((answer) => answer.status === 429)?.body.code, 'too_many_sessions');

      // Ten requests at once, spread over two instances with separate pools: exactly three sessions.
      const second = await c.createApiKey('limited, concurrent');
      const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => ask(index % 2 === 0 ? c : d, second)));
      t.is(
        answers.filter((answer) => answer.status === 200).length,
        3,
        answers.map((answer) => answer.status).join(','),
      );
      t.true(answers.every((answer) => answer.status === 200 || answer.body.code === 'too_many_sessions'));
    } finally {
      await c.close();
      await d.close();
    }
  },
);

test.serial('the session of an instance that vanished (no heartbeat) stops counting against its key', async (t) => {
  // Heartbeat off for the test's duration, so the instance does not renew what the test ages.
  const c = await startVoiceServer({
    databaseUrl: postgres.url,
    engines: a.engines,
    registry: { maxSessionsPerKey: 1, heartbeatMs: 3_600_000 },
  });
  try {
    const oneKey = await c.createApiKey('one session');
    const ask = () => requestSession(c.url, oneKey, { source_media_content_type: PCM_16K });
    const first = await ask();
    const streaming = await connect(streamOn(c, first.body.token));
    t.is((await ask()).status, 429, 'the streaming session counts');
    // As if c had crashed 10 minutes ago: last seen longer ago than the instance timeout plus the detached time.
    const instanceId = (c.registry as PostgresSessionRegistry).instanceId;
    await database.query('UPDATE voice_instances SET seen_at = $1 WHERE id = $2', [
      Date.now() - 10 * 60_000,
      instanceId,
    ]);
    t.is((await ask()).status, 200, 'a session on a dead instance no longer counts');
    streaming.socket.terminate();
  } finally {
    await c.close();
  }
});

test.serial(
  'an instance that stops (SIGTERM) closes its streams with 1001; the sessions are resumed through another',
  async (t) => {
    t.timeout(90_000);
    const session = await sessionOn(a);
    const onB = await connect(streamOn(b, session.token));
    const stopped = b.stop('SIGTERM');
    t.is((await onB.closed).code, 1001);
    t.is(await stopped, 0);
    const rotated = await requestReconnection(a.url, key, session.token);
    t.is(rotated.status, 200, JSON.stringify(rotated.body));
    const resumed = await LiveStream.open(streamOn(a, rotated.body.token));
    await resumed.stream(spokenPassage([TABLE_SENTENCE], 400), 3200, 50);
    t.is((await resumed.closed).code, 1000);
    t.true(wordErrorRate(TABLE_SENTENCE, resumed.sourceText()) <= 0.2);
    // The stopped instance left no trace: no session claims to stream anywhere. A's own end-of-session write
    // lands just after the client saw its close frame, so the count is polled, within a bound.
    const streaming = async () =>
      (
        await database.query(
          'SELECT count(*)::int AS n FROM voice_sessions WHERE instance_id IS NOT NULL AND detached_at IS NULL',
        )
      ).rows[0].n as number;
    const deadline = Date.now() + 5000;
    while ((await streaming()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(await streaming(), 0);
  },
);

test.serial(
  'PostgreSQL unreachable: session requests and upgrades answer 503, and work again once it is back, without a restart',
  async (t) => {
    t.timeout(90_000);
    const url = await postgres.freshDatabase('voice_outage');
    const name = new URL(url).pathname.slice(1);
    const instance = await startVoiceServer({ databaseUrl: url, engines: a.engines });
    try {
      const outageKey = await instance.createApiKey('outage');
      const ask = () => requestSession(instance.url, outageKey, { source_media_content_type: PCM_16K });
      const waiting = await ask();
      t.is(waiting.status, 200);
      // The outage: no new connections to this database, and the open ones are cut.
      await database.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await database.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const refused = await ask();
      t.deepEqual([refused.status, refused.body.code], [503, 'service_unavailable']);
      const upgrade = await refusedUpgrade(streamOn(instance, waiting.body.token));
      t.deepEqual([upgrade.status, JSON.parse(upgrade.body).code], [503, 'service_unavailable']);
      // Back: the same process serves again.
      await database.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      t.is((await ask()).status, 200);
      const stream = await LiveStream.open(streamOn(instance, waiting.body.token));
      await stream.stream(spokenPassage([], 300), 3200, 50);
      t.is((await stream.closed).code, 1000);
    } finally {
      await database.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
      await instance.close();
    }
  },
);
