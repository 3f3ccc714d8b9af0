import { compileErrors, validate as validateOpenApi } from '@readme/openapi-parser';
import test from 'ava';
import { answerChecker, documentedAnswers, openApiValidator } from 'app-support/testing';
import { MAX_BODY_BYTES, OPENAPI_PATH } from '../src/app';
import { ApiKeyStore } from '../src/storage/api-key-store';
import { GlossaryStore } from '../src/storage/glossary-store';
import { SpokenTermsStore } from '../src/storage/spoken-terms-store';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { requireEnginePackages } from './support/system-packages';
import { connect, type StreamClient } from './support/ws-client';
import { encodeAudio, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { finished, jobClient } from './support/job-client';

let server: VoiceServer;
test.before(async () => {
  requireEnginePackages();
  // One session per key and one stream per server: the table reaches both limits.
  server = await startVoiceServer({ registry: { maxSessionsPerKey: 1 }, maxSessions: 1 });
});
test.after.always(() => server?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const SESSIONS = '/v3/voice/realtime';
const POST = `POST ${SESSIONS}`;
const GET = `GET ${SESSIONS}`;

/** One request whose answer must be the documented `status` of `operation`. */
interface Sample {
  operation: string;
  status: number;
  request: () => Promise<Response>;
}

const GLOSSARIES = '/v3/glossaries';
const GLOSSARY = '/v3/glossaries/{glossary_id}';
const ENTRIES = '/v3/glossaries/{glossary_id}/entries';
const TERMS = '/v3/spoken-terms';
const COLLECTION = '/v3/spoken-terms/{spoken_terms_id}';
const TERM_ENTRIES = '/v3/spoken-terms/{spoken_terms_id}/entries';
const JOBS = '/v1/jobs/voice/translate';
const JOB = '/v1/jobs/voice/translate/{job_id}';
const UPLOAD = '/v1/jobs/voice/translate/{job_id}/source';
const RESULT = '/v1/jobs/voice/translate/{job_id}/results/{index}';
const DATABASE_DOWN = 'needs the key or glossary store (the database) down while the server runs';

/** Documented answers no sample reaches here, each with why (asserted: the list is exactly these). */
const UNSAMPLED: Record<string, string> = {
  [`${GET} 503`]: 'needs the key or session store (its database) down while the server runs',
  [`POST ${GLOSSARIES} 503`]: DATABASE_DOWN,
  [`GET ${GLOSSARIES} 503`]: DATABASE_DOWN,
  [`GET ${GLOSSARY} 503`]: DATABASE_DOWN,
  [`GET ${ENTRIES} 503`]: DATABASE_DOWN,
  [`DELETE ${GLOSSARY} 503`]: DATABASE_DOWN,
  [`POST ${TERMS} 503`]: DATABASE_DOWN,
  [`GET ${TERMS} 503`]: DATABASE_DOWN,
  [`GET ${COLLECTION} 503`]: DATABASE_DOWN,
  [`GET ${TERM_ENTRIES} 503`]: DATABASE_DOWN,
  [`DELETE ${COLLECTION} 503`]: DATABASE_DOWN,
};

test('every documented answer of the session API is what the server sends for a sample request (status, media type, body), and the document validates', async (t) => {
  const document = await (await fetch(`${server.url}${OPENAPI_PATH}`)).json();
  const validate = openApiValidator();
  t.true(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  // And by an established OpenAPI 3.1 parser, besides the project's own validator.
  const established = await validateOpenApi(structuredClone(document) as never);
  t.true(established.valid, established.valid ? '' : compileErrors(established));

  const keyA = await server.createApiKey('conformance A');
  const keyB = await server.createApiKey('conformance B');
  const auth = (key: string) => ({ authorization: `DeepL-Auth-Key ${key}` });
  const post = (headers: Record<string, string>, body: string, type = 'application/json') =>
    fetch(`${server.url}${SESSIONS}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  const request = JSON.stringify({ source_media_content_type: PCM_16K, target_languages: ['fr'] });
  let token = '';
  let streamingUrl = '';
  let stream: StreamClient | undefined;
  t.teardown(() => stream?.socket.terminate());

  const table: Sample[] = [
    { operation: POST, status: 200, request: () => post(auth(keyA), request) },
    { operation: POST, status: 429, request: () => post(auth(keyA), request) },
    {
      operation: POST,
      status: 400,
      request: () => post(auth(keyB), JSON.stringify({ source_media_content_type: 'audio/nothing' })),
    },
    { operation: POST, status: 401, request: () => post({}, request) },
    { operation: POST, status: 403, request: () => post(auth('not-a-key'), request) },
    { operation: POST, status: 406, request: () => post({ ...auth(keyB), accept: 'text/csv' }, request) },
    {
      operation: POST,
      status: 413,
      request: () => post(auth(keyB), JSON.stringify({ filler: 'x'.repeat(MAX_BODY_BYTES) })),
    },
    { operation: POST, status: 415, request: () => post(auth(keyB), request, 'text/plain') },
    {
      operation: GET,
      status: 200,
      request: () => fetch(`${server.url}${SESSIONS}?token=${encodeURIComponent(token)}`, { headers: auth(keyA) }),
    },
    { operation: GET, status: 400, request: () => fetch(`${server.url}${SESSIONS}`, { headers: auth(keyA) }) },
    { operation: GET, status: 401, request: () => fetch(`${server.url}${SESSIONS}?token=x`) },
    {
      operation: GET,
      status: 403,
      request: () => fetch(`${server.url}${SESSIONS}?token=nonsense`, { headers: auth(keyA) }),
    },
    {
      operation: GET,
      status: 406,
      request: () => fetch(`${server.url}${SESSIONS}?token=x`, { headers: { ...auth(keyA), accept: 'text/csv' } }),
    },
    ...glossarySamples(),
    ...spokenTermsSamples(),
    ...jobSamples(),
    // The server's one stream place taken by key A's session: key B's request finds the server full.
    {
      operation: POST,
      status: 503,
      request: async () => {
        stream = await connect(`${streamingUrl}?token=${encodeURIComponent(token)}`);
        return post(auth(keyB), request);
      },
    },
  ];

  function glossarySamples(): Sample[] {
    const glossaries = `${server.url}/v3/glossaries`;
    const call = (
      method: string,
      url: string,
      headers: Record<string, string>,
      body?: string,
      type = 'application/json',
    ) => fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': type }), ...headers }, body });
    const create = JSON.stringify({
      name: 'conformance',
      dictionaries: [{ source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria' }],
    });
    let id = '';
    const one = () => `${glossaries}/${id}`;
    const entries = () => `${one()}/entries?source_lang=en&target_lang=es`;
    const undecodable = `${glossaries}/%E0%A4%A`;
    const operations: Array<[string, number, () => Promise<Response>]> = [
      [
        `POST ${GLOSSARIES}`,
        201,
        async () => {
          const response = await call('POST', glossaries, auth(keyA), create);
          id = ((await response.clone().json()) as { glossary_id: string }).glossary_id;
          return response;
        },
      ],
      [
        `POST ${GLOSSARIES}`,
        400,
        () => call('POST', glossaries, auth(keyA), JSON.stringify({ name: 'x', dictionaries: [] })),
      ],
      [`POST ${GLOSSARIES}`, 401, () => call('POST', glossaries, {}, create)],
      [`POST ${GLOSSARIES}`, 403, () => call('POST', glossaries, auth('not-a-key'), create)],
      [`POST ${GLOSSARIES}`, 406, () => call('POST', glossaries, { ...auth(keyA), accept: 'text/csv' }, create)],
      [
        `POST ${GLOSSARIES}`,
        413,
        () => call('POST', glossaries, auth(keyA), JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES) })),
      ],
      [`POST ${GLOSSARIES}`, 415, () => call('POST', glossaries, auth(keyA), create, 'text/plain')],
      [
        `POST ${GLOSSARIES}`,
        456,
        async () => {
          // A key at its limit of 1000 glossaries (made in the store: 1000 requests would only take longer).
          const full = await server.createApiKey('conformance full');
          const owner = (await new ApiKeyStore(server.database.db).verify(full))!.id;
          const store = new GlossaryStore(server.database.db);
          const dictionary = { sourceLang: 'en', targetLang: 'es', entries: [{ source: 'a', target: 'b' }] };
          for (let index = 0; index < 1000; index += 1) await store.create(owner, `g${index}`, [dictionary]);
          return call('POST', glossaries, auth(full), create);
        },
      ],
      [`GET ${GLOSSARIES}`, 200, () => call('GET', glossaries, auth(keyA))],
      [`GET ${GLOSSARIES}`, 401, () => call('GET', glossaries, {})],
      [`GET ${GLOSSARIES}`, 403, () => call('GET', glossaries, auth('not-a-key'))],
      [`GET ${GLOSSARIES}`, 406, () => call('GET', glossaries, { ...auth(keyA), accept: 'text/csv' })],
      [`GET ${GLOSSARY}`, 200, () => call('GET', one(), auth(keyA))],
      [`GET ${GLOSSARY}`, 400, () => call('GET', undecodable, auth(keyA))],
      [`GET ${GLOSSARY}`, 401, () => call('GET', one(), {})],
      [`GET ${GLOSSARY}`, 403, () => call('GET', one(), auth('not-a-key'))],
      [`GET ${GLOSSARY}`, 404, () => call('GET', one(), auth(keyB))],
      [`GET ${GLOSSARY}`, 406, () => call('GET', one(), { ...auth(keyA), accept: 'text/csv' })],
      [`GET ${ENTRIES}`, 200, () => call('GET', entries(), auth(keyA))],
      [`GET ${ENTRIES}`, 400, () => call('GET', `${one()}/entries?source_lang=en`, auth(keyA))],
      [`GET ${ENTRIES}`, 401, () => call('GET', entries(), {})],
      [`GET ${ENTRIES}`, 403, () => call('GET', entries(), auth('not-a-key'))],
      [`GET ${ENTRIES}`, 404, () => call('GET', `${one()}/entries?source_lang=en&target_lang=fr`, auth(keyA))],
      [`GET ${ENTRIES}`, 406, () => call('GET', entries(), { ...auth(keyA), accept: 'text/csv' })],
      [`DELETE ${GLOSSARY}`, 400, () => call('DELETE', undecodable, auth(keyA))],
      [`DELETE ${GLOSSARY}`, 401, () => call('DELETE', one(), {})],
      [`DELETE ${GLOSSARY}`, 403, () => call('DELETE', one(), auth('not-a-key'))],
      [`DELETE ${GLOSSARY}`, 404, () => call('DELETE', one(), auth(keyB))],
      [`DELETE ${GLOSSARY}`, 406, () => call('DELETE', one(), { ...auth(keyA), accept: 'text/csv' })],
      [`DELETE ${GLOSSARY}`, 204, () => call('DELETE', one(), auth(keyA))],
    ];
    return operations.map(([operation, status, request]) => ({ operation, status, request }));
  }

  function spokenTermsSamples(): Sample[] {
    const collections = `${server.url}${TERMS}`;
    const call = (
      method: string,
      url: string,
      headers: Record<string, string>,
      body?: string,
      type = 'application/json',
    ) => fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': type }), ...headers }, body });
    const create = JSON.stringify({ name: 'conformance', term_lists: [{ lang: 'en', entries: 'Zelensky' }] });
    let id = '';
    const one = () => `${collections}/${id}`;
    const entries = () => `${one()}/entries?lang=en`;
    const undecodable = `${collections}/%E0%A4%A`;
    const operations: Array<[string, number, () => Promise<Response>]> = [
      [
        `POST ${TERMS}`,
        201,
        async () => {
          const response = await call('POST', collections, auth(keyA), create);
          id = ((await response.clone().json()) as { spoken_terms_id: string }).spoken_terms_id;
          return response;
        },
      ],
      [
        `POST ${TERMS}`,
        400,
        () =>
          call(
            'POST',
            collections,
            auth(keyA),
            JSON.stringify({ name: 'x', term_lists: [{ lang: 'de', entries: 'a' }] }),
          ),
      ],
      [`POST ${TERMS}`, 401, () => call('POST', collections, {}, create)],
      [`POST ${TERMS}`, 403, () => call('POST', collections, auth('not-a-key'), create)],
      [`POST ${TERMS}`, 406, () => call('POST', collections, { ...auth(keyA), accept: 'text/csv' }, create)],
      [
        `POST ${TERMS}`,
        413,
        () => call('POST', collections, auth(keyA), JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES) })),
      ],
      [`POST ${TERMS}`, 415, () => call('POST', collections, auth(keyA), create, 'text/plain')],
      [
        `POST ${TERMS}`,
        456,
        async () => {
          // A key at its limit of 1000 collections (made in the store: 1000 requests would only take longer).
          const full = await server.createApiKey('conformance full terms');
          const owner = (await new ApiKeyStore(server.database.db).verify(full))!.id;
          const store = new SpokenTermsStore(server.database.db);
          for (let index = 0; index < 1000; index += 1) await store.create(owner, `t${index}`, []);
          return call('POST', collections, auth(full), create);
        },
      ],
      [`GET ${TERMS}`, 200, () => call('GET', collections, auth(keyA))],
      [`GET ${TERMS}`, 401, () => call('GET', collections, {})],
      [`GET ${TERMS}`, 403, () => call('GET', collections, auth('not-a-key'))],
      [`GET ${TERMS}`, 406, () => call('GET', collections, { ...auth(keyA), accept: 'text/csv' })],
      [`GET ${COLLECTION}`, 200, () => call('GET', one(), auth(keyA))],
      [`GET ${COLLECTION}`, 400, () => call('GET', undecodable, auth(keyA))],
      [`GET ${COLLECTION}`, 401, () => call('GET', one(), {})],
      [`GET ${COLLECTION}`, 403, () => call('GET', one(), auth('not-a-key'))],
      [`GET ${COLLECTION}`, 404, () => call('GET', one(), auth(keyB))],
      [`GET ${COLLECTION}`, 406, () => call('GET', one(), { ...auth(keyA), accept: 'text/csv' })],
      [`GET ${TERM_ENTRIES}`, 200, () => call('GET', entries(), auth(keyA))],
      [`GET ${TERM_ENTRIES}`, 400, () => call('GET', `${one()}/entries`, auth(keyA))],
      [`GET ${TERM_ENTRIES}`, 401, () => call('GET', entries(), {})],
      [`GET ${TERM_ENTRIES}`, 403, () => call('GET', entries(), auth('not-a-key'))],
      [`GET ${TERM_ENTRIES}`, 404, () => call('GET', `${one()}/entries?lang=fr`, auth(keyA))],
      [`GET ${TERM_ENTRIES}`, 406, () => call('GET', entries(), { ...auth(keyA), accept: 'text/csv' })],
      [`DELETE ${COLLECTION}`, 400, () => call('DELETE', undecodable, auth(keyA))],
      [`DELETE ${COLLECTION}`, 401, () => call('DELETE', one(), {})],
      [`DELETE ${COLLECTION}`, 403, () => call('DELETE', one(), auth('not-a-key'))],
      [`DELETE ${COLLECTION}`, 404, () => call('DELETE', one(), auth(keyB))],
      [`DELETE ${COLLECTION}`, 406, () => call('DELETE', one(), { ...auth(keyA), accept: 'text/csv' })],
      [`DELETE ${COLLECTION}`, 204, () => call('DELETE', one(), auth(keyA))],
    ];
    return operations.map(([operation, status, request]) => ({ operation, status, request }));
  }

  function jobSamples(): Sample[] {
    const jobs = `${server.url}/v1/jobs/voice/translate`;
    const file = encodeAudio(spokenPassage([TABLE_SENTENCE]), ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3']);
    const body = (length = file.length) =>
      JSON.stringify({
        source_file: { name: 'a.mp3', content_type: 'audio/mpeg', content_length: length },
        targets: [{ language: 'en', type: 'text/plain' }],
      });
    const call = (
      method: string,
      url: string,
      headers: Record<string, string>,
      sent?: string | Buffer,
      type?: string,
    ) =>
      fetch(url, {
        method,
        headers: { ...(type === undefined ? {} : { 'content-type': type }), ...headers },
        body: sent,
      });
    const json = 'application/json';
    const octets = 'application/octet-stream';
    const signed = (signature: string) => ({ authorization: `DeepL-Signature ${signature}` });
    const uuid = '00000000-0000-4000-8000-000000000000';
    let job = { job_id: '', upload_url: '', signature: '' };
    let other = { job_id: '', upload_url: '', signature: '' };
    let result = { download_url: '', signature: '' };
    const createTwo = async () => {
      const answer = await call('POST', jobs, auth(keyA), body(), json);
      other = (await (await call('POST', jobs, auth(keyA), body(file.length + 10), json)).json()) as typeof other;
      job = (await answer.clone().json()) as typeof job;
      return answer;
    };
    const status = () => `${jobs}/${job.job_id}`;
    const operations: Array<[string, number, () => Promise<Response>]> = [
      [`POST ${JOBS}`, 201, createTwo],
      [`POST ${JOBS}`, 400, () => call('POST', jobs, auth(keyA), '{}', json)],
      [`POST ${JOBS}`, 401, () => call('POST', jobs, {}, body(), json)],
      [`POST ${JOBS}`, 403, () => call('POST', jobs, auth('not-a-key'), body(), json)],
      [`POST ${JOBS}`, 406, () => call('POST', jobs, { ...auth(keyA), accept: 'text/csv' }, body(), json)],
      [
        `POST ${JOBS}`,
        413,
        () => call('POST', jobs, auth(keyA), JSON.stringify({ x: 'x'.repeat(MAX_BODY_BYTES) }), json),
      ],
      [`POST ${JOBS}`, 415, () => call('POST', jobs, auth(keyA), body(), 'text/plain')],
      [
        `POST ${JOBS}`,
        429,
        async () => {
          const busy = await server.createApiKey('conformance busy jobs');
          for (let index = 0; index < 10; index += 1) await call('POST', jobs, auth(busy), body(), json);
          return call('POST', jobs, auth(busy), body(), json);
        },
      ],
      [`PUT ${UPLOAD}`, 401, () => call('PUT', job.upload_url, {}, file, octets)],
      [`PUT ${UPLOAD}`, 403, () => call('PUT', job.upload_url, signed(other.signature), file, octets)],
      [`PUT ${UPLOAD}`, 404, () => call('PUT', `${jobs}/${uuid}/source`, signed(job.signature), file, octets)],
      [
        `PUT ${UPLOAD}`,
        406,
        () => call('PUT', job.upload_url, { ...signed(job.signature), accept: 'text/csv' }, file, octets),
      ],
      [
        `PUT ${UPLOAD}`,
        413,
        () => call('PUT', job.upload_url, signed(job.signature), Buffer.concat([file, file]), octets),
      ],
      [`PUT ${UPLOAD}`, 400, () => call('PUT', other.upload_url, signed(other.signature), file, octets)],
      [`PUT ${UPLOAD}`, 204, () => call('PUT', job.upload_url, signed(job.signature), file, octets)],
      [`PUT ${UPLOAD}`, 409, () => call('PUT', job.upload_url, signed(job.signature), file, octets)],
      [
        `GET ${JOB}`,
        200,
        async () => {
          const done = await jobClient(server.url, keyA).until(job.job_id, finished);
          result = done.results[0];
          return call('GET', status(), auth(keyA));
        },
      ],
      [`GET ${JOB}`, 400, () => call('GET', `${jobs}/%E0%A4%A`, auth(keyA))],
      [`GET ${JOB}`, 401, () => call('GET', status(), {})],
      [`GET ${JOB}`, 403, () => call('GET', status(), auth('not-a-key'))],
      [`GET ${JOB}`, 404, () => call('GET', status(), auth(keyB))],
      [`GET ${JOB}`, 406, () => call('GET', status(), { ...auth(keyA), accept: 'text/csv' })],
      [`GET ${RESULT}`, 200, () => call('GET', result.download_url, signed(result.signature))],
      [`GET ${RESULT}`, 400, () => call('GET', `${jobs}/%E0%A4%A/results/0`, signed(result.signature))],
      [`GET ${RESULT}`, 401, () => call('GET', result.download_url, {})],
      [`GET ${RESULT}`, 403, () => call('GET', result.download_url, signed(job.signature))],
      [`GET ${RESULT}`, 404, () => call('GET', `${status()}/results/1`, signed(result.signature))],
      [
        `GET ${RESULT}`,
        406,
        () => call('GET', result.download_url, { ...signed(result.signature), accept: 'text/csv' }),
      ],
    ];
    return operations.map(([operation, status, request]) => ({ operation, status, request }));
  }

  const sampled = table.map((s) => `${s.operation} ${s.status}`);
  t.deepEqual(
    [...new Set([...sampled, ...Object.keys(UNSAMPLED)])].sort(),
    documentedAnswers(document).sort(),
    'a sample for every documented answer (but the listed ones), and no answer left undocumented',
  );
  const check = answerChecker(document);
  for (const sample of table) {
    const res = await sample.request();
    const body = await res.text();
    t.is(res.status, sample.status, `${sample.operation}: ${body.slice(0, 300)}`);
    t.deepEqual(
      check(sample.operation, { status: res.status, headers: res.headers, body }),
      [],
      `${sample.operation} ${sample.status}`,
    );
    if (res.status === 200 && sample.operation.endsWith(SESSIONS))
      ({ token, streaming_url: streamingUrl } = JSON.parse(body));
  }
});
