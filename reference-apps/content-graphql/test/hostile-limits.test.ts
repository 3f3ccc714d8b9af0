import test from 'ava';
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { postgresForTests } from 'app-support';
import { startContentServer, type RunningContentServer } from '../src/server';
import { DIALECTS } from './helpers/content-fixture';
import { MAX_SAME_FIELD } from '../src/graphql/limits';
import { MAX_NESTING } from '../src/graphql/document-nesting';
import { MAX_URL_BYTES } from '../src/http/graphql-resource';

// Hostile documents, arguments and requests against a running server with the limits the shipped server sets.
// Each is refused with a clear message, quickly (the refusal must not cost what it protects against), and the
// server answers a normal request right after.

const LIMITS = { maxGraphqlDepth: 5, maxGraphqlComplexity: 2000, maxGraphqlAliases: 20, maxGraphqlTokens: 10_000 };
/** Refusals must come well before the work they prevent would have taken (seconds, measured without the guards). */
const QUICK_MS = 1500;

for (const dialect of DIALECTS) {
  let server: RunningContentServer;
  let dir: string;
  let pg: Awaited<ReturnType<typeof postgresForTests>> | null = null;

  test.serial.before(`${dialect}: start`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-hostile-'));
    pg = dialect === 'postgres' ? await postgresForTests('content_hostile') : null;
    server = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: pg?.url ?? join(dir, 'content.db'),
      assetsRoot: join(dir, 'assets'),
      settings: { changePollMs: 0, ...LIMITS },
    });
  });
  test.serial.after.always(`${dialect}: stop`, async () => {
    await server?.close();
    await pg?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: json, text, ms: performance.now() - started };
  };
  const stillServes = async (t: import('ava').ExecutionContext) => {
    const answer = await post({ query: '{ ping }' });
    t.is(answer.status, 200);
    t.deepEqual(answer.body, { data: { ping: 'pong' } });
  };
  const refused = async (
    t: import('ava').ExecutionContext,
    query: string,
    message: string | RegExp,
    variables?: unknown,
  ) => {
    const answer = await post({ query, variables });
    t.is(answer.status, 200, 'GraphQL errors come with 200 for application/json clients, as in the CMS');
    t.is(answer.body.data, undefined, 'nothing was executed');
    const messages = (answer.body.errors as Array<{ message: string }>).map((e) => e.message);
    if (typeof message === 'string')
      t.true(messages.includes(message), `${messages.join(' | ')} should hold ${message}`);
    else
      t.true(
        messages.some((m) => message.test(m)),
        `${messages.join(' | ')} should match ${message}`,
      );
    t.true(answer.ms < QUICK_MS, `refused in ${answer.ms.toFixed(0)} ms`);
    await stillServes(t);
  };

  test.serial(`${dialect}: too deep queries are refused, through fields and fragments`, async (t) => {
    await refused(
      t,
      '{ entries { children { children { children { children { children { title } } } } } } }',
      'Max query depth should be 5 but got 6.',
    );
    await refused(
      t,
      'query { entries { ...Deep } } fragment Deep on EntryInterface { children { children { children { children { parent { title } } } } } }',
      'Max query depth should be 5 but got 6.',
    );
    t.truthy(
      (await post({ query: '{ entries { children { children { children { children { title } } } } } }' })).body.data,
      'depth 5 is fine',
    );
  });

  test.serial(`${dialect}: asking for __schema does not lift the limits (the CMS exempts such queries)`, async (t) => {
    await refused(
      t,
      '{ __schema { types { name } } entries { children { children { children { children { children { title } } } } } } }',
      'Max query depth should be 5 but got 6.',
    );
    const introspection = await post({ query: getIntrospectionQuery() });
    t.is(introspection.status, 200);
    t.truthy(introspection.body.data.__schema.types.length > 10, "GraphiQL's introspection query passes the limits");
    await refused(
      t,
      '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }',
      /Maximum introspection depth exceeded/,
    );
  });

  test.serial(`${dialect}: too complex queries are refused, alias floods of costly fields first`, async (t) => {
    const costly = Array.from({ length: 15 }, (_, i) => `a${i}: assets { url(width: 300) }`).join(' ');
    await refused(t, `{ ${costly} }`, 'Max query complexity should be 2000 but got 3150.');
    const transforms = Array.from({ length: 11 }, (_, i) => `u${i}: url(width: ${100 + i})`).join(' ');
    await refused(t, `{ assets { ${transforms} } }`, 'Max query complexity should be 2000 but got 2210.');
  });

  test.serial(`${dialect}: alias floods are refused, in fields, fragments and introspection`, async (t) => {
    const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
    t.truthy((await post({ query: `{ ${aliases(20, 'ping')} }` })).body.data, '20 aliases are fine');
    await refused(t, `{ ${aliases(21, 'ping')} }`, 'Max query aliases should be 20 but got 21.');
    await refused(t, `{ ${aliases(500, '__typename')} }`, 'Max query aliases should be 20 but got 500.');
    await refused(t, `{ ${aliases(30, '__schema { types { name } }')} }`, 'Max query aliases should be 20 but got 30.');
    await refused(
      t,
      `query { ...A ...B } fragment A on Query { ${aliases(15, 'ping')} } fragment B on Query { ${aliases(15, 'ping').replace(/a(\d+):/g, 'b$1:')} }`,
      'Max query aliases should be 20 but got 30.',
    );
  });

  test.serial(
    `${dialect}: one field repeated thousands of times is refused before graphql-js validates it`,
    async (t) => {
      // Without the guard these take 2.5 s and 6 s of validation (graphql-js compares every pair of same-named fields).
      await refused(
        t,
        `{ ${'ping '.repeat(3000)}}`,
        `The field "ping" is selected 3000 times in one selection set; at most ${MAX_SAME_FIELD} are accepted.`,
      );
      await refused(t, `{ ${'entries { title } '.repeat(2000)}}`, /The field "entries" is selected 2000 times/);
      // Fragments spread two by two, 30 levels deep, stand for 2^30 selections: measured once each, refused at once.
      const fanOut = `query { ...F0 } ${Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F30 on Query { ping }`;
      await refused(t, fanOut, /The field "ping" is selected \d+ times in one selection set/);
      await refused(
        t,
        'query { ...A } fragment A on Query { ping ...B } fragment B on Query { ping ...A }',
        'Cannot spread fragment "A" within itself via "B".',
      );
    },
  );

  test.serial(`${dialect}: huge documents stop parsing at the token limit`, async (t) => {
    await refused(
      t,
      `{ entries(search: "${'x '.repeat(20)}") { ${'title '.repeat(10_001)}} }`,
      /^Syntax Error: Document contains more tha[nt] 10000 tokens\. Parsing aborted\.$/,
    );
  });

  test.serial(`${dialect}: oversized arguments get a clear error, not a database failure`, async (t) => {
    const ask = (query: string, variables: unknown) => post({ query, variables });
    const cases: Array<[string, string, unknown, string]> = [
      [
        'ids',
        'query($v: [QueryArgument]) { entries(id: $v) { id } }',
        Array.from({ length: 40_000 }, (_, i) => i),
        'Argument "id" has 40000 values; at most 1000 are accepted',
      ],
      [
        'one huge value',
        'query($v: [QueryArgument]) { entries(id: $v) { id } }',
        [Array.from({ length: 5000 }, (_, i) => i).join(' ')],
        'Invalid value "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29… for argument "id": expected a number, optionally with an operator like ">= 3" or "not 4"',
      ],
      [
        'slugs',
        'query($v: [String]) { entries(slug: $v) { id } }',
        Array.from({ length: 1001 }, (_, i) => `s${i}`),
        'Argument "slug" has 1001 values; at most 1000 are accepted',
      ],
      [
        'relatedTo',
        'query($v: [Int]) { entries(relatedTo: $v) { id } }',
        Array.from({ length: 20_000 }, (_, i) => i),
        'Argument "relatedTo" has 20000 values; at most 1000 are accepted',
      ],
      [
        'search text',
        'query($v: String) { entries(search: $v) { id } }',
        'w '.repeat(600),
        'Argument "search" has 1200 characters; at most 1000 are accepted',
      ],
      [
        'search terms',
        'query($v: String) { entries(search: $v) { id } }',
        Array.from({ length: 60 }, (_, i) => `w${i}`).join(' OR '),
        'Argument "search" has 60 terms; at most 50 are accepted',
      ],
      [
        'orderBy',
        'query($v: String) { entries(orderBy: $v) { id } }',
        'title,'.repeat(21),
        'Invalid orderBy: 21 columns; at most 20 are accepted',
      ],
    ];
    for (const [name, query, value, message] of cases) {
      const answer = await ask(query, { v: value });
      t.is(answer.status, 200, name);
      t.deepEqual(
        answer.body.errors.map((e: { message: string }) => e.message),
        [message],
        name,
      );
      t.true(answer.ms < QUICK_MS, `${name}: ${answer.ms.toFixed(0)} ms`);
    }
    // The largest accepted lists work on both engines (balanced OR trees stay within SQLite's expression depth).
    const many = await ask('query($v: [String], $i: [QueryArgument]) { entries(slug: $v, id: $i) { id } }', {
      v: Array.from({ length: 1000 }, (_, i) => `s${i}`),
      i: Array.from({ length: 1000 }, (_, i) => `>= ${i}`),
    });
    t.deepEqual(many.body, { data: { entries: [] } });
    const terms = await ask('query($v: String) { entries(search: $v) { title } }', {
      v: ['harbour', ...Array.from({ length: 49 }, (_, i) => `-zz${i}`)].join(' '),
    });
    t.true(terms.body.data.entries.length > 0);
    await stillServes(t);
  });

  test.serial(`${dialect}: hostile variables are refused with 400 and a message`, async (t) => {
    const deep = `{"query":"query($v: [Int]) { entries(relatedTo: $v) { id } }","variables":{"v":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    const nested = await post(deep);
    t.is(nested.status, 400);
    t.deepEqual(nested.body, { errors: [{ message: 'The variables are nested more than 32 levels deep' }] });
    const notObject = await post({ query: '{ ping }', variables: [1, 2] });
    t.is(notObject.status, 400);
    t.deepEqual(notObject.body, { errors: [{ message: 'The variables must be a JSON object' }] });
    const wrongType = await post({ query: 'query($v: Int) { entries(limit: $v) { id } }', variables: { v: 'many' } });
    t.is(wrongType.status, 200);
    t.regex(
      wrongType.body.errors[0].message,
      /Variable "\$v" got invalid value "many"; Int cannot represent non-integer value/,
    );
    const proto = await post(
      '{"query":"query($v: [String]) { entries(slug: $v) { id } }","variables":{"__proto__":{"polluted":true},"v":["about-us"]}}',
    );
    t.is(proto.status, 200);
    t.is(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
    await stillServes(t);
  });

  test.serial(
    `${dialect}: documents nested thousands of levels deep are refused before graphql-js's parser overflows its stack`,
    async (t) => {
      const tooDeep = `Syntax Error: Document is nested more than ${MAX_NESTING} levels deep (braces, brackets and parentheses). Parsing aborted.`;
      // Without the pre-scan these answered 200 with "RangeError: Maximum call stack size exceeded".
      await refused(t, `{ entries ${'{ children '.repeat(2000)}{ title }${' }'.repeat(2001)}`, tooDeep);
      await refused(t, `{ entries(id: ${'['.repeat(5000)}${']'.repeat(5000)}) { id } }`, tooDeep);
      await refused(t, `query($v: Int = ${'['.repeat(3000)}1${']'.repeat(3000)}) { ping }`, tooDeep);
      const answer = await post({ query: `{ entries ${'{ children '.repeat(2000)}{ title }${' }'.repeat(2001)}` });
      t.deepEqual(
        answer.body.errors[0].locations,
        [{ line: 1, column: 11 + 11 * (MAX_NESTING - 1) }],
        'the error points at the bracket past the limit',
      );
      const overHttp = await post(
        { query: `{${' a {'.repeat(3000)}` },
        { Accept: 'application/graphql-response+json' },
      );
      t.is(overHttp.status, 400, 'GraphQL over HTTP: a document that does not parse is a 400');
      t.is(overHttp.body.errors[0].message, tooDeep);
      const get = await fetch(`${server.url}/api?query=${encodeURIComponent(`{${' a {'.repeat(150)}`)}`);
      t.is(get.status, 200);
      t.is(
        ((await get.json()) as any).errors[0].message,
        tooDeep,
        'GET queries are scanned before the mutation check parses them',
      );
      // Braces inside strings, block strings and comments are not nesting.
      const inText = await post({
        query: `{ ping # ${'{'.repeat(300)}\n entries(search: "${'{'.repeat(150)}\\"") { title } a: entries(search: """${'['.repeat(150)} \\""" """) { title } }`,
      });
      t.is(inText.status, 200);
      t.is(inText.body.errors, undefined);
      t.is(inText.body.data.ping, 'pong');
      t.truthy(
        (await post({ query: `{ entries ${'{ children '.repeat(4)}{ title }${' }'.repeat(5)}` })).body.data,
        'ordinary nesting is fine',
      );
      await stillServes(t);
    },
  );

  test.serial(`${dialect}: with introspection off, errors suggest no field, argument or type names`, async (t) => {
    const misspelt = [
      '{ entrie { title } }',
      '{ entries(sectoin: "news") { title } }',
      '{ entries { ... on news_articl_Entry { title } } }',
      '{ entries { titel } }',
      '{ entries { postDate @formatDateTime(formt: "Y") } }',
    ];
    const messages = async () =>
      (await Promise.all(misspelt.map((query) => post({ query })))).map(
        (answer) => answer.body.errors[0].message as string,
      );
    const withIntrospection = await messages();
    t.true(
      withIntrospection.every((message) => message.includes('Did you mean')),
      'the hints exist while introspection is on',
    );
    server.service.graphql.settings.enableGraphqlIntrospection = false;
    try {
      t.deepEqual(await messages(), [
        'Cannot query field "entrie" on type "Query".',
        'Unknown argument "sectoin" on field "Query.entries".',
        'Unknown type "news_articl_Entry".',
        'Cannot query field "titel" on type "EntryInterface".',
        'Unknown argument "formt" on directive "@formatDateTime".',
      ]);
    } finally {
      server.service.graphql.settings.enableGraphqlIntrospection = true;
    }
  });

  test.serial(`${dialect}: oversized requests are refused before they are read, as GraphQL errors`, async (t) => {
    // A megabyte query: the framework refuses it (413) before reading; the endpoint still answers in GraphQL's shape.
    const big = await post({ query: `{ ping ${' '.repeat(1024 * 1024)}}` });
    t.is(big.status, 413);
    t.deepEqual(big.body, {
      errors: [
        {
          message: `Request body of ${JSON.stringify({ query: `{ ping ${' '.repeat(1024 * 1024)}}` }).length} bytes exceeds the limit of 262144 bytes`,
        },
      ],
    });
    const padded = await post({ query: '{ ping }', variables: { padding: 'x'.repeat(300 * 1024) } });
    t.is(padded.status, 413);
    t.regex(padded.body.errors[0].message, /exceeds the limit of 262144 bytes/);
    // Without a Content-Length the body is cut when it grows past the limit.
    const chunked = await rawAnswer(
      server.port,
      `POST /api HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${'40000\r\n' + ' '.repeat(0x40000) + '\r\n'}${'10\r\n' + ' '.repeat(16) + '\r\n'}0\r\n\r\n`,
    );
    t.is(chunked.status, 413);
    t.deepEqual(JSON.parse(chunked.body), { errors: [{ message: 'Request body exceeds the limit of 262144 bytes' }] });
    const put = await fetch(`${server.url}/api`, { method: 'PUT', body: '{}' });
    t.is(put.status, 405);
    t.deepEqual(await put.json(), {
      errors: [{ message: 'Method PUT is not allowed for /api; allowed: GET, HEAD, OPTIONS, POST' }],
    });
    await stillServes(t);
  });

  test.serial(
    `${dialect}: long URLs get 414 as a GraphQL error; a head beyond what uWebSockets.js buffers is dropped`,
    async (t) => {
      // 8 KiB, sent in one write: uWebSockets.js reads it whole, and the endpoint refuses it with a message.
      const long = await rawAnswer(
        server.port,
        `GET /api?query=${'%7Bping%7D'.repeat(800)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      t.is(long.status, 414);
      t.deepEqual(JSON.parse(long.body), {
        errors: [
          {
            message: `The URL has ${11 + 8000} bytes; at most ${MAX_URL_BYTES} are accepted: send long queries in a POST body`,
          },
        ],
      });
      const post414 = await fetch(`${server.url}/api?operationName=${'x'.repeat(MAX_URL_BYTES)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"query":"{ ping }"}',
      });
      t.is(post414.status, 414);
      t.regex(((await post414.json()) as any).errors[0].message, /at most 4096 are accepted/);
      const justFits = await fetch(
        `${server.url}/api?query=${encodeURIComponent('{ ping }')}&x=${'y'.repeat(MAX_URL_BYTES - 30)}`,
      );
      t.is(justFits.status, 200, 'a URL of exactly the limit is answered');
      t.deepEqual(await justFits.json(), { data: { ping: 'pong' } });
      // A megabyte URL: uWebSockets.js (20.30) buffers at most 4 KiB of a head that spans reads and then closes the
      // connection without writing anything; no JavaScript runs, so no status can be sent (docs/content-graphql.md).
      const huge = await rawAnswer(
        server.port,
        `GET /api?query=${'%7Bping%7D'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      t.is(huge.status, 'closed');
      t.is(huge.body, '', 'not a byte was answered');
      await stillServes(t);
    },
  );
}

/** Sends raw bytes; the status and body of the answer, or 'closed' when the server drops the connection first. */
function rawAnswer(port: number, request: string): Promise<{ status: number | 'closed'; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    }, 5000);
    const settle = () => {
      clearTimeout(timer);
      // biome-ignore lint/correctness/noEmptyCharacterClassInRegex: [^] matches any character, line breaks included
      const head = /^HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/.exec(data);
      resolve(head ? { status: Number(head[1]), body: data.slice(head[0].length) } : { status: 'closed', body: data });
    };
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      // The endpoint's answers have a Content-Length: the answer is complete when that many bytes came.
      // biome-ignore lint/correctness/noEmptyCharacterClassInRegex: [^] matches any character, line breaks included
      const head = /^HTTP\/1\.1 \d{3}[^]*?\r\n\r\n/.exec(data);
      const length = head && /\r\ncontent-length: (\d+)/i.exec(head[0]);
      if (head && length && data.length >= head[0].length + Number(length[1])) {
        socket.destroy();
        settle();
      }
    });
    socket.on('error', settle);
    socket.on('close', settle);
    socket.write(request);
  });
}
