import test from 'ava';
import { answerChecker, documentedAnswers, openApiValidator } from 'app-support/testing';
import { OPENAPI_PATH } from '../src/app';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { requireEnginePackages } from './support/system-packages';
import { connect, type StreamClient } from './support/ws-client';

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

/** Documented answers no sample reaches here, each with why (asserted: the list is exactly these). */
const UNSAMPLED: Record<string, string> = {
  [`${GET} 503`]: 'needs the key or session store (its database) down while the server runs',
};

test('every documented answer of the session API is what the server sends for a sample request (status, media type, body), and the document validates', async (t) => {
  const document = await (await fetch(`${server.url}${OPENAPI_PATH}`)).json();
  const validate = openApiValidator();
  t.true(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));

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
      request: () => post(auth(keyB), JSON.stringify({ filler: 'x'.repeat(20 * 1024) })),
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
    if (res.status === 200) ({ token, streaming_url: streamingUrl } = JSON.parse(body));
  }
});
