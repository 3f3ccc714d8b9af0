import { bodyCases } from './body-cases';
import {
  copyParts,
  fitsHeader,
  toRequest,
  type AuthProfile,
  type CorpusCase,
  type CorpusPlan,
  type Expectation,
  type RequestParts,
} from './corpus-case';
import { exampleFromSchema, type CorpusRoute } from './corpus-routes';
import { deepArray, hostileStrings, percentEncode, RAW_URL_PIECES, SeededRandom, type Named } from './hostile-values';
import { encodeRequest, type RawHeader } from './raw-http';

export function authApplies(auth: AuthProfile | undefined, route: CorpusRoute): auth is AuthProfile {
  return auth !== undefined && (auth.appliesTo ? auth.appliesTo(route) : route.secured);
}

/** The valid request of a route, in parts: the sample's values, or values made from the route's schema. */
export function baseParts(plan: CorpusPlan, route: CorpusRoute): RequestParts {
  const sample = plan.sample(route) ?? {};
  const parts: RequestParts = {
    method: route.method,
    // Segment by segment: a sample may span segments (`images/news/boats.png` for `{file:.+}`).
    path: Object.fromEntries(
      route.pathParams.map((name) => [name, (sample.path?.[name] ?? '1').split('/').map(percentEncode).join('/')]),
    ),
    query: Object.entries(sample.query ?? {}).map(([name, value]) => [percentEncode(name), percentEncode(value)]),
    auth: authApplies(plan.auth, route) ? [...plan.auth.valid] : [],
    headers: [...(sample.headers ?? [])],
  };
  if (sample.rawBody) {
    parts.contentType = sample.rawBody.type;
    parts.body = sample.rawBody.data;
  } else if (sample.body !== undefined || route.body) {
    const value = sample.body !== undefined ? sample.body : exampleFromSchema(plan.document, route.body?.schema);
    parts.contentType = 'application/json';
    parts.body = Buffer.from(JSON.stringify(value));
  }
  return parts;
}

/** Every case for every route: the valid request first, then each attack on one part of it. */
export function buildCorpus(plan: CorpusPlan): CorpusCase[] {
  const random = new SeededRandom(plan.seed);
  const strings = hostileStrings(random);
  const cases: CorpusCase[] = [];
  const templatesSeen = new Set<string>();
  for (const route of plan.routes) {
    const base = baseParts(plan, route);
    const add = (
      kind: string,
      name: string,
      expect: Expectation,
      change: (parts: RequestParts) => void,
      flags: { mayClose?: boolean; mustClose?: boolean } = {},
    ) => {
      const parts = copyParts(base);
      change(parts);
      cases.push({ kind, route: route.key, name, expect, request: toRequest(route, parts), ...flags });
    };
    add('baseline', 'the valid request', 'any', () => {});
    if (authApplies(plan.auth, route)) authCases(plan.auth, add);
    pathCases(route, strings, add);
    queryCases(route, plan.sample(route)?.extraQueryParams ?? [], strings, random, add);
    headerCases(route, strings, base, add);
    framingCases(route, base, add);
    if (!templatesSeen.has(route.template)) {
      templatesSeen.add(route.template);
      methodCases(route, plan.routes, add);
    }
    if (route.body && base.body) cases.push(...bodyCases(plan, route, base, strings));
  }
  return cases;
}

type Add = (
  kind: string,
  name: string,
  expect: Expectation,
  change: (parts: RequestParts) => void,
  flags?: { mayClose?: boolean; mustClose?: boolean },
) => void;

function authCases(auth: AuthProfile, add: Add): void {
  const [name, value] = auth.valid[0];
  const text = value.toString();
  const scheme = text.includes(' ') ? text.slice(0, text.indexOf(' ') + 1) : '';
  const secret = text.slice(scheme.length);
  const swapped = secret.length > 0 ? `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}` : 'a';
  const refused: Array<[string, RawHeader[], boolean?]> = [
    ['no credentials', []],
    ['empty credentials', [[name, '']]],
    ['scheme without a secret', [[name, scheme.trim() || 'Bearer']]],
    ['truncated secret', [[name, `${scheme}${secret.slice(0, Math.max(1, secret.length - 4))}`]]],
    ['one character changed', [[name, `${scheme}${swapped}`]]],
    ['secret without its scheme', scheme ? [[name, secret]] : [[name, `Bearer ${secret}`]]],
    ['8 KB secret', [[name, `${scheme}${'k'.repeat(8192)}`]], true],
    ['Basic credentials', [[name, `Basic ${Buffer.from(`corpus:${secret}`).toString('base64')}`]]],
    ...(auth.refused ?? []).map((entry): [string, RawHeader[]] => [entry.name, entry.value]),
  ];
  for (const [caseName, headers, mayClose] of refused) {
    add('auth', caseName, 'refused', (parts) => (parts.auth = headers), { mayClose: mayClose ?? false });
  }
  // uWebSockets.js 20.30 ends a header value at its first byte over 0x7F, so the app sees the valid key alone.
  add('auth', 'unicode after the secret', 'any', (parts) => (parts.auth = [[name, `${text}\u00e9\u{1F511}`]]));
  add('auth', 'scheme in lower case', 'any', (parts) => (parts.auth = [[name, `${scheme.toLowerCase()}${secret}`]]));
  add(
    'auth',
    'invalid credentials, then valid ones',
    'any',
    (parts) => (parts.auth = [[name, `${scheme}wrong`], ...auth.valid]),
  );
  add(
    'auth',
    'valid credentials, then invalid ones',
    'any',
    (parts) => (parts.auth = [...auth.valid, [name, `${scheme}wrong`]]),
  );
}

function pathCases(route: CorpusRoute, strings: Named<string>[], add: Add): void {
  for (const param of route.pathParams) {
    for (const hostile of strings) {
      const encoded = percentEncode(hostile.value) || '%20';
      // A request line longer than uWebSockets.js's buffer is cut off with the connection.
      add('path', `${param}: ${hostile.name}`, 'any', (parts) => (parts.path[param] = encoded), {
        mayClose: encoded.length > 4000,
      });
    }
    for (const piece of RAW_URL_PIECES)
      add('path', `${param}: ${piece.name}`, 'any', (parts) => (parts.path[param] = piece.value), {
        mayClose: piece.value.length > 4000,
      });
  }
}

function queryCases(
  route: CorpusRoute,
  extra: readonly string[],
  strings: Named<string>[],
  random: SeededRandom,
  add: Add,
): void {
  const set = (parts: RequestParts, name: string, value: string | undefined) => {
    parts.query = [...parts.query.filter(([key]) => key !== name), [name, value]];
  };
  for (const param of [...route.queryParams, ...extra]) {
    for (const hostile of strings)
      add('query', `${param}: ${hostile.name}`, 'any', (parts) => set(parts, param, percentEncode(hostile.value)), {
        mayClose: hostile.value.length > 1000,
      });
    for (const piece of RAW_URL_PIECES)
      add('query', `${param}: ${piece.name}`, 'any', (parts) => set(parts, param, piece.value), {
        mayClose: piece.value.length > 1000,
      });
    add('query', `${param}: name without a value`, 'any', (parts) => set(parts, param, undefined));
    add('query', `${param}: repeated with another value`, 'any', (parts) => {
      const current = parts.query.find(([key]) => key === param)?.[1] ?? '1';
      parts.query = [...parts.query, [param, `${current}0`], [param, 'other']];
    });
  }
  add('query', 'unknown parameter with NUL and unicode', 'any', (parts) =>
    parts.query.push(['zz%00', percentEncode(random.unicodeString(12))]),
  );
  add(
    'query',
    '2,000 parameters',
    'any',
    (parts) => parts.query.push(...Array.from({ length: 2000 }, (_, index): [string, string] => [`p${index}`, '1'])),
    { mayClose: true },
  );
  add('query', 'only separators', 'any', (parts) => parts.query.push(['&&&=&=', undefined]));
}

function headerCases(route: CorpusRoute, strings: Named<string>[], base: RequestParts, add: Add): void {
  const withHeaders =
    (...headers: RawHeader[]) =>
    (parts: RequestParts) =>
      parts.headers.push(...headers);
  add('headers', 'Accept: image/png', 'any', withHeaders(['Accept', 'image/png']));
  add(
    'headers',
    'two conflicting Accept headers',
    'any',
    withHeaders(['Accept', 'application/json'], ['Accept', 'image/png']),
  );
  add(
    'headers',
    'Accept with 500 types',
    'any',
    withHeaders(['Accept', Array.from({ length: 500 }, (_, index) => `x/y${index};q=0.${index % 10}`).join(', ')]),
    { mayClose: true },
  );
  add(
    'headers',
    'Accept with broken quality values',
    'any',
    withHeaders(['Accept', 'application/json;q=abc, */*;q=-1, ;;,']),
  );
  add('headers', 'Accept-Charset: utf-16', 'any', withHeaders(['Accept-Charset', 'utf-16']));
  add(
    'headers',
    'two Host headers',
    'any',
    (parts) => parts.headers.push(['Host', 'evil.example'], ['Host', 'other.example']),
    { mayClose: true },
  );
  for (const host of ['evil.example', 'a b', '[::1', 'h\u00e9.example', `${'h'.repeat(2000)}.example`]) {
    add('headers', `Host: ${host.slice(0, 30)}`, 'any', withHeaders(['Host', host]), { mayClose: true });
  }
  for (const hostile of strings.filter((entry) => fitsHeader(entry.value) && entry.value.length < 1000)) {
    add(
      'headers',
      `X-Forwarded-Host: ${hostile.name}`,
      'any',
      withHeaders(['X-Forwarded-Host', hostile.value], ['X-Forwarded-Proto', 'https']),
      { mayClose: true },
    );
  }
  add('headers', 'X-Forwarded-Proto list', 'any', withHeaders(['X-Forwarded-Proto', 'https, http, gopher']));
  add('headers', 'invalid UTF-8 in a header value', 'any', withHeaders(['X-Corpus', Buffer.from([0xff, 0xfe, 0x80])]), {
    mayClose: true,
  });
  // 40: uWebSockets.js 20.30 neither answers nor closes a request with more than about 50 headers (see fitsHeader).
  add(
    'headers',
    'the same header 40 times',
    'any',
    withHeaders(...Array.from({ length: 40 }, (_, index): RawHeader => ['X-Corpus', String(index)])),
  );
  add('headers', 'Connection: keep-alive, close', 'any', withHeaders(['Connection', 'keep-alive, close']));
  add('headers', 'Cookie with unicode and NUL-like text', 'any', withHeaders(['Cookie', 'a=%00; b=\u00e9; ;=; c']));
  add('headers', 'Expect: 100-continue', 'any', withHeaders(['Expect', '100-continue']));
  if (base.body) {
    add('headers', 'two conflicting Content-Type headers', 'any', withHeaders(['Content-Type', 'text/plain']));
    add('headers', 'Content-Encoding: gzip on a plain body', 'any', withHeaders(['Content-Encoding', 'gzip']));
  }
  for (const param of route.headerParams) {
    for (const hostile of strings.filter((entry) => fitsHeader(entry.value))) {
      add(
        'headers',
        `${param}: ${hostile.name}`,
        'any',
        (parts) => {
          // In place of the valid value, credentials included (a credential header is one of these: see routesFromOpenApi).
          parts.headers = [...parts.headers.filter(([name]) => name.toLowerCase() !== param), [param, hostile.value]];
          parts.auth = parts.auth.filter(([name]) => name.toLowerCase() !== param);
        },
        { mayClose: true },
      );
    }
  }
}

/** Ambiguous message framing: two lengths, length and chunked, bad lengths; a copy of the valid request rides behind. */
function framingCases(route: CorpusRoute, base: RequestParts, add: Add): void {
  const body = base.body ?? Buffer.alloc(0);
  const tail = encodeRequest(toRequest(route, base), '127.0.0.1');
  const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  const framing = (
    name: string,
    headers: RawHeader[],
    sent: Buffer,
    expect: Expectation = 'refused',
    withTail = true,
  ) =>
    add(
      'framing',
      name,
      expect,
      (parts) => {
        parts.headers.push(...headers);
        parts.body = sent;
        parts.contentLength = false;
        if (withTail) parts.trailing = tail;
      },
      { mayClose: true, mustClose: expect === 'refused' },
    );
  framing(
    'two different Content-Length headers',
    [
      ['Content-Length', String(body.length)],
      ['Content-Length', String(body.length + tail.length)],
    ],
    body,
  );
  framing(
    'Content-Length and Transfer-Encoding: chunked',
    [
      ['Content-Length', String(chunked.length + tail.length)],
      ['Transfer-Encoding', 'chunked'],
    ],
    chunked,
  );
  framing(
    'two Transfer-Encoding headers',
    [
      ['Transfer-Encoding', 'chunked'],
      ['Transfer-Encoding', 'identity'],
    ],
    chunked,
  );
  framing('Transfer-Encoding: gzip, chunked', [['Transfer-Encoding', 'gzip, chunked']], chunked);
  for (const length of ['-1', '+1', '0x10', '1 1', 'abc'])
    framing(`Content-Length: ${length}`, [['Content-Length', length]], body);
  framing(
    'the same Content-Length twice',
    [
      ['Content-Length', String(body.length)],
      ['Content-Length', String(body.length)],
    ],
    body,
    'any',
    false,
  );
  if (base.body) framing('a chunked body', [['Transfer-Encoding', 'chunked']], chunked, 'any', false);
}

function methodCases(route: CorpusRoute, routes: readonly CorpusRoute[], add: Add): void {
  const defined = new Set(routes.filter((other) => other.template === route.template).map((other) => other.method));
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'FOO']) {
    if (defined.has(method)) continue;
    // uWebSockets.js closes the connection on a method it does not know (PROPFIND, FOO) without calling the app.
    add('method', `${method} (not a method of this path)`, 'refused', (parts) => (parts.method = method), {
      mayClose: ['PROPFIND', 'FOO'].includes(method),
    });
  }
  if (defined.has('GET') && !defined.has('HEAD')) add('method', 'HEAD', 'any', (parts) => (parts.method = 'HEAD'));
  if (!defined.has('OPTIONS')) add('method', 'OPTIONS', 'any', (parts) => (parts.method = 'OPTIONS'));
  if (!route.body)
    add('method', `${route.method} with a JSON body`, 'any', (parts) => {
      parts.contentType = 'application/json';
      parts.body = Buffer.from(`{"a":${deepArray(10)}}`);
    });
}
