import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { readVoiceConfig } from '../src/config';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer, type VoiceServerOptions } from '../src/server';
import { download, finished, jobClient } from './support/job-client';
import { decodeAudio, encodeAudio, REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { DeepLSpec } from './support/deepl-spec';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';

// Audio-file translation jobs through HTTP as a client uses them (DeepL's Voice Translate Job API): create, upload
// with the signature, poll, download each target; on SQLite and on PostgreSQL, across a restart; the refusals.

const spec = new DeepLSpec();
const CREATED = 'deepl:jobs#/components/schemas/CreateJobResponse';
const STATUS = 'deepl:jobs#/components/schemas/JobStatusResponse';
const ERROR = 'deepl:jobs#/components/schemas/ErrorResponse';

let directory: string;
let postgres: TestPostgresDatabase;
let engines: VoiceEngines;
test.before(async () => {
  requireEnginePackages();
  directory = mkdtempSync(path.join(tmpdir(), 'voice-jobs-test-'));
  postgres = await postgresForTests('voice_jobs');
  engines = createOfflineEngines();
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
  rmSync(directory, { recursive: true, force: true });
});

const PASSAGE = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]);
const MP3 = encodeAudio(PASSAGE, ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3']);
const PASSAGE_MS = (PASSAGE.length / 32) | 0;

const jobBody = (file: Buffer, targets: unknown[], contentType = 'audio/mpeg') => ({
  source_file: { name: 'meeting.mp3', content_type: contentType, content_length: file.length },
  parameters: { source_language: 'en' },
  targets,
});

const TARGETS = [
  { language: 'en', type: 'text/plain' },
  { language: 'es', type: 'text/plain' },
  { language: 'es', type: 'application/x-subrip' },
  { language: 'es', type: 'audio/ogg;codecs=opus' },
];

async function start(url: string, options: Partial<VoiceServerOptions> = {}): Promise<VoiceServer> {
  return startVoiceServer({
    databaseUrl: url,
    engines,
    sessionRateLimit: false,
    ...options,
    jobs: { directory: path.join(directory, 'files', path.basename(url)), ...options.jobs },
  });
}

const databases = [
  { name: 'SQLite', url: async () => path.join(directory, `jobs-${Math.random().toString(36).slice(2)}.db`) },
  { name: 'PostgreSQL', url: () => postgres.freshDatabase('voice_jobs') },
];

for (const database of databases) {
  test.serial(
    `${database.name}: upload, poll, download transcript, translation, subtitles and speech; kept across a restart`,
    async (t) => {
      const url = await database.url();
      let server = await start(url);
      t.teardown(() => server.close());
      const key = await server.createApiKey('jobs');
      let client = jobClient(server.url, key);

      const created = await client.create(jobBody(MP3, TARGETS));
      t.is(created.status, 201, JSON.stringify(created.body));
      const id: string = created.body.job_id;
      t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      t.is(created.body.upload_url, `${server.url}/v1/jobs/voice/translate/${id}/source`);
      t.is(typeof created.body.signature, 'string');
      t.is(created.body.signed_upload_url, undefined, 'no signed URL unless asked for');
      t.deepEqual(spec.check(CREATED, created.body), [], "the answer validates against DeepL's CreateJobResponse");

      const pending = await client.status(id);
      t.is(pending.status, 200);
      t.deepEqual(
        pending.body.results.map((result: any) => result.status),
        ['pending', 'pending', 'pending', 'pending'],
      );
      t.deepEqual(pending.body.targets, TARGETS);
      t.like(pending.body, { product: 'voice', operation: 'translate', parameters: { source_language: 'en' } });

      const uploaded = await client.upload(created.body.upload_url, created.body.signature, MP3);
      t.is(uploaded.status, 204, JSON.stringify(uploaded.body));

      // Poll: statuses only move forward, progress never goes back.
      const order = ['pending', 'uploaded', 'processing', 'complete'];
      let lastStep = 1;
      let lastPercent = 0;
      const done = await client.until(id, (status) => {
        const step = order.indexOf(status.results[0].status);
        t.true(step >= lastStep, `status went from ${order[lastStep]} to ${status.results[0].status}`);
        t.true(status.progress.percent >= lastPercent, 'progress never goes back');
        lastStep = step;
        lastPercent = status.progress.percent;
        return finished(status);
      });
      t.deepEqual(
        done.results.map((result: any) => result.status),
        ['complete', 'complete', 'complete', 'complete'],
        JSON.stringify(done.results),
      );
      t.is(done.progress.percent, 100);
      t.true(Math.abs(done.progress.duration_ms - PASSAGE_MS) < 100, `duration ${done.progress.duration_ms}`);
      t.true(done.usage.storage_used > MP3.length, 'storage counts the source and the results');

      const [transcript, translation, subtitles, speech] = await Promise.all(
        done.results.map((result: any) => download(result.download_url, result.signature)),
      );
      t.is(transcript.status, 200);
      t.is(transcript.headers.get('content-type'), 'text/plain; charset=utf-8');
      const lines = transcript.bytes.toString('utf8').trim().split('\n');
      t.is(lines.length, 2, transcript.bytes.toString('utf8'));
      t.true(wordErrorRate(TABLE_SENTENCE, lines[0]) <= 0.3, lines[0]);
      t.true(wordErrorRate(REPORT_SENTENCE, lines[1]) <= 0.3, lines[1]);
      t.is(translation.status, 200);
      t.regex(translation.bytes.toString('utf8'), /mesa/, 'Spanish translation');
      t.regex(translation.bytes.toString('utf8'), /informe/);
      t.is(subtitles.headers.get('content-type'), 'application/x-subrip; charset=utf-8');
      const cues = subtitles.bytes.toString('utf8').trim().split('\n\n');
      t.is(cues.length, 2);
      const times = cues.map((cue: string) => {
        const match = /^(\d+)\n(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})\n(.+)$/.exec(cue);
        if (!match) throw new Error(`not a SubRip cue: ${cue}`);
        const ms = (h: string, m: string, s: string, f: string) => ((+h * 60 + +m) * 60 + +s) * 1000 + +f;
        return { start: ms(match[2], match[3], match[4], match[5]), end: ms(match[6], match[7], match[8], match[9]) };
      });
      // The first sentence starts after the passage's 800 ms of silence; the second after it.
      t.true(times[0].start >= 500 && times[0].start < 1500, JSON.stringify(times));
      t.true(times[1].start > times[0].end && times[1].end <= PASSAGE_MS, JSON.stringify(times));
      t.is(speech.headers.get('content-type'), 'audio/ogg;codecs=opus');
      t.is(speech.bytes.subarray(0, 4).toString('latin1'), 'OggS');
      const decoded = decodeAudio(speech.bytes);
      t.true(decoded.length / 32 >= PASSAGE_MS - 100, `speech lasts ${decoded.length / 32} ms`);

      const afterDownload = await client.status(id);
      t.deepEqual(
        afterDownload.body.results.map((result: any) => result.status),
        ['downloaded', 'downloaded', 'downloaded', 'downloaded'],
      );

      // Stored in the database (and its folder): a restarted server still serves the job and its results.
      await server.close();
      server = await start(url);
      client = jobClient(server.url, key);
      const again = await client.status(id);
      t.is(again.status, 200);
      const redownload = await download(again.body.results[0].download_url, again.body.results[0].signature);
      t.is(redownload.status, 200);
      t.deepEqual(redownload.bytes, transcript.bytes);
    },
  );
}

test.serial('auth: the key owns the job; uploads and downloads need their own signature', async (t) => {
  const server = await start(path.join(directory, 'auth.db'));
  t.teardown(() => server.close());
  const a = jobClient(server.url, await server.createApiKey('a'));
  const b = jobClient(server.url, await server.createApiKey('b'));
  const body = jobBody(MP3, [
    { language: 'en', type: 'text/plain' },
    { language: 'fr', type: 'text/plain' },
  ]);

  const noKey = await jobClient(server.url, '').create(body);
  t.is(noKey.status, 401);
  t.deepEqual(Object.keys(noKey.body).sort(), ['code', 'message']);
  const badKey = await jobClient(server.url, 'not-a-key').create(body);
  t.is(badKey.status, 403);
  t.is(badKey.body.code, 'forbidden');

  const created = await a.create(body, '?include=signed_url');
  t.is(created.status, 201);
  t.deepEqual(spec.check(CREATED, created.body), []);
  const { job_id: id, upload_url: uploadUrl, signature, signed_upload_url: signedUrl } = created.body;
  t.deepEqual(
    spec.check(STATUS, (await a.status(id)).body),
    [],
    "a pending job validates as DeepL's JobStatusResponse",
  );
  t.is(signedUrl, `${uploadUrl}?signature=${encodeURIComponent(signature)}`);
  t.is((await b.status(id)).status, 404, "another key's job is not found");
  t.is((await b.status(id)).body.code, 'not_found');

  const unsigned = await a.upload(uploadUrl, undefined, MP3);
  t.is(unsigned.status, 401, 'the API key is not the upload signature');
  t.regex(unsigned.body.message, /DeepL-Signature/);
  const forged = await a.upload(uploadUrl, `${signature.slice(0, -2)}xx`, MP3);
  t.is(forged.status, 403);
  t.is(forged.body.code, 'forbidden');
  const other = await a.create(body);
  const crossed = await a.upload(other.body.upload_url, signature, MP3);
  t.is(crossed.status, 403, "one job's signature does not open another's upload");
  t.is(readdirSync(path.join(directory, 'files', 'auth.db')).length, 0, 'nothing refused was stored');

  const viaSignedUrl = await a.upload(signedUrl, undefined, MP3);
  t.is(viaSignedUrl.status, 204, 'the signed URL needs no header');
  const twice = await a.upload(uploadUrl, signature, MP3);
  t.is(twice.status, 409);
  t.is(twice.body.code, 'already_uploaded');

  const done = await a.until(id, finished);
  const [first, second] = done.results;
  t.is(first.status, 'complete');
  t.is((await download(first.download_url)).status, 401);
  t.is((await download(first.download_url, signature)).status, 403, 'the upload signature does not download');
  t.is((await download(first.download_url, second.signature)).status, 403, "target 1's signature is not target 0's");
  t.is((await download(`${done.results[0].download_url.slice(0, -1)}7`, first.signature)).status, 404);
  const signedStatus = await a.status(id, '?include=signed_url');
  t.deepEqual(spec.check(STATUS, signedStatus.body), [], "a complete job validates as DeepL's JobStatusResponse");
  t.deepEqual(spec.check(ERROR, forged.body), []);
  const signedDownload = await download(signedStatus.body.results[1].signed_download_url);
  t.is(signedDownload.status, 200);
  t.regex(signedDownload.bytes.toString('utf8'), /table/i);
});

test.serial(
  'refusals: invalid requests, sizes, formats, durations and the per-key limit, in the API error shape',
  async (t) => {
    const server = await start(path.join(directory, 'limits.db'), {
      jobs: { limits: { maxFileBytes: 200_000, maxDurationMs: 8_000, maxActiveJobsPerKey: 4 } },
    });
    t.teardown(() => server.close());
    const client = jobClient(server.url, await server.createApiKey('limits'));
    const refused = async (body: unknown, status: number, message: RegExp) => {
      const answer = await client.create(body);
      t.is(answer.status, status, JSON.stringify(answer.body));
      t.deepEqual(Object.keys(answer.body).sort(), ['code', 'message']);
      t.regex(answer.body.message, message);
    };
    await refused('not json', 400, /JSON/);
    await refused({ targets: [] }, 400, /\/source_file/);
    await refused(jobBody(MP3, []), 400, /\/targets: required/);
    await refused(
      jobBody(MP3, [{ language: 'de', type: 'text/plain' }]),
      400,
      /\/targets\/0\/language: "de" is not served/,
    );
    await refused(jobBody(MP3, [{ language: 'es', type: 'video/mp4' }]), 400, /\/targets\/0\/type/);
    await refused(jobBody(MP3, [{ language: 'es', type: 'text/plain', glossary: 'x' }]), 400, /unknown field/);
    await refused(jobBody(MP3, TARGETS, 'audio/aiff'), 400, /content_type/);
    await refused(
      {
        ...jobBody(MP3, TARGETS),
        source_file: { name: 'big.mp3', content_type: 'audio/mpeg', content_length: 200_001 },
      },
      400,
      /over this server's limit of 200000 bytes/,
    );
    await refused({ ...jobBody(MP3, TARGETS), parameters: { source_language: 'fr' } }, 400, /source_language/);

    const upload = async (file: Buffer, announced = file.length, contentType = 'audio/mpeg') => {
      const created = await client.create({
        ...jobBody(file, [{ language: 'en', type: 'text/plain' }], contentType),
        source_file: { name: 'f', content_type: contentType, content_length: announced },
      });
      t.is(created.status, 201, JSON.stringify(created.body));
      return client.upload(created.body.upload_url, created.body.signature, file);
    };
    const larger = await upload(MP3, MP3.length - 1000);
    t.is(larger.status, 413, 'more bytes than announced');
    t.is(larger.body.code, 'payload_too_large');
    const smaller = await upload(MP3, MP3.length + 1000);
    t.is(smaller.status, 400);
    t.is(smaller.body.code, 'size_mismatch');
    t.regex(smaller.body.message, /announced content_length/);
    const notAudio = await upload(Buffer.from('%PDF-1.4 this is no audio at all '.repeat(100)));
    t.is(notAudio.status, 400);
    t.is(notAudio.body.code, 'invalid_audio');
    const long = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE, TABLE_SENTENCE]);
    const tooLong = await upload(encodeAudio(long, ['-c:a', 'libmp3lame', '-b:a', '32k', '-f', 'mp3']));
    t.is(tooLong.status, 400);
    t.is(tooLong.body.code, 'audio_too_long');
    t.regex(tooLong.body.message, /at most 8 s/);

    // Four unfinished jobs (awaiting their upload) are this key's limit.
    const limited = await client.create(jobBody(MP3, [{ language: 'en', type: 'text/plain' }]));
    t.is(limited.status, 429);
    t.is(limited.body.code, 'too_many_jobs');
    t.is(limited.headers.get('retry-after'), '5');
    t.is((await client.status('00000000-0000-4000-8000-000000000000')).status, 404);
    t.is((await client.status('not-a-uuid')).status, 404);
  },
);

test.serial(
  'a file whose length its headers do not state is held to the duration limit while it is decoded',
  async (t) => {
    const server = await start(path.join(directory, 'unstated.db'), { jobs: { limits: { maxDurationMs: 8_000 } } });
    t.teardown(() => server.close());
    const client = jobClient(server.url, await server.createApiKey('unstated'));
    // WebM written to a pipe has no duration in its headers: the upload cannot judge it, the worker does.
    const long = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE, TABLE_SENTENCE]);
    const webm = encodeAudio(long, ['-c:a', 'libopus', '-b:a', '32k', '-f', 'webm']);
    const targets = [
      { language: 'en', type: 'text/plain' },
      { language: 'es', type: 'text/plain' },
    ];
    const created = await client.create(jobBody(webm, targets, 'audio/webm'));
    t.is(created.status, 201);
    const uploaded = await client.upload(created.body.upload_url, created.body.signature, webm);
    t.is(uploaded.status, 204, JSON.stringify(uploaded.body));
    const done = await client.until(created.body.job_id, finished);
    t.deepEqual(
      done.results.map((result: any) => result.status),
      ['failed', 'failed'],
    );
    t.regex(done.results[1].error.message, /longer than this server's limit of 8 s/);
    t.is(done.results[0].download_url, undefined);
  },
);

test('the job options come from flags and environment variables; bad values stop the server', (t) => {
  t.deepEqual(readVoiceConfig([], {}).jobs, {
    directory: undefined,
    concurrency: 1,
    maxFileBytes: 1024 ** 3,
    maxDurationMs: 3 * 3600 * 1000,
  });
  t.deepEqual(
    readVoiceConfig(['--job-concurrency', '2', '--job-max-duration', '600'], {
      VOICE_JOBS_DIRECTORY: '/srv/voice-jobs',
      VOICE_JOB_MAX_FILE_SIZE: '1000000',
      VOICE_JOB_MAX_DURATION: '30',
    }).jobs,
    { directory: '/srv/voice-jobs', concurrency: 2, maxFileBytes: 1_000_000, maxDurationMs: 600_000 },
  );
  t.throws(() => readVoiceConfig(['--job-concurrency', '0'], {}), {
    message: /--job-concurrency: expected a positive integer/,
  });
  t.throws(() => readVoiceConfig([], { VOICE_JOB_MAX_FILE_SIZE: '1GB' }), { message: /VOICE_JOB_MAX_FILE_SIZE/ });
});

test.serial('PostgreSQL: two instances share the queue; each job is processed once and served by either', async (t) => {
  const url = await postgres.freshDatabase('voice_jobs');
  const shared = { jobs: { directory: path.join(directory, 'files', 'shared') } };
  const a = await start(url, shared);
  t.teardown(() => a.close());
  const b = await start(url, shared);
  t.teardown(() => b.close());
  const key = await a.createApiKey('two instances');
  const viaA = jobClient(a.url, key);
  const viaB = jobClient(b.url, key);
  const ids: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    const created = await viaA.create(jobBody(MP3, [{ language: 'en', type: 'text/plain' }]));
    t.is(await viaA.upload(created.body.upload_url, created.body.signature, MP3).then((answer) => answer.status), 204);
    ids.push(created.body.job_id);
  }
  for (const id of ids) {
    const done = await viaB.until(id, finished);
    t.is(done.results[0].status, 'complete');
    t.true(done.results[0].download_url.startsWith(b.url), 'the status names the instance asked');
    const result = await download(done.results[0].download_url, done.results[0].signature);
    t.regex(result.bytes.toString('utf8'), /table/);
  }
  const rows = await a.database.db.selectFrom('voice_jobs').select(['id', 'attempts']).execute();
  t.deepEqual(
    rows.map((row) => Number(row.attempts)),
    [1, 1, 1],
    'no job was claimed twice',
  );
});
