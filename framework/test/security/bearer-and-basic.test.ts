import test from 'ava';
import {
  BasicAuthenticationProvider,
  BearerAuthenticationProvider,
  Context,
  GET,
  hashPassword,
  Path,
  RestBuilder,
  RolesAllowed,
  secretsEqual,
  User,
  verifyPassword,
} from '../../src/index';
import { basic, recordingLogger, serve } from './security-fixtures';

@Path('/api')
class ApiResource {
  @GET
  @Path('/me')
  me(@Context() user: User): string {
    return `${user.name}:${user.roles.join(',')}`;
  }

  @GET
  @Path('/admin')
  @RolesAllowed('admin')
  admin(): string {
    return 'admin';
  }
}

const ADMIN_TOKEN = 'tok_admin.Zm9v-bar_~9+/=';
const READER_TOKEN = 'tok_reader123';

test('Bearer: the token maps to its user; roles apply', async (t) => {
  const provider = BearerAuthenticationProvider.fromTokens({
    [ADMIN_TOKEN]: new User('root', ['admin']),
    [READER_TOKEN]: new User('rita', ['reader']),
  });
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider));
  try {
    const me = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    t.is(me.status, 200);
    t.is(await me.text(), 'root:admin');
    // The scheme is case-insensitive (RFC 7235).
    t.is((await fetch(`${server.url}/api/admin`, { headers: { authorization: `bearer ${ADMIN_TOKEN}` } })).status, 200);
    t.is(
      (await fetch(`${server.url}/api/admin`, { headers: { authorization: `Bearer ${READER_TOKEN}` } })).status,
      403,
    );
  } finally {
    server.close();
  }
});

test('Bearer: missing, malformed and unknown tokens are 401 with the RFC 6750 challenge', async (t) => {
  const provider = BearerAuthenticationProvider.fromTokens(
    { [ADMIN_TOKEN]: new User('root', ['admin']) },
    { realm: 'bookings' },
  );
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider));
  try {
    const missing = await fetch(`${server.url}/api/me`);
    t.is(missing.status, 401);
    t.is(missing.headers.get('www-authenticate'), 'Bearer realm="bookings"');
    for (const header of ['Bearer', 'Bearer two tokens', 'Basic abc', `Bearer ${ADMIN_TOKEN}"`, 'Bearer tok\u00e9n']) {
      const res = await fetch(`${server.url}/api/me`, {
        headers: { authorization: Buffer.from(header, 'utf8').toString('latin1') },
      });
      t.is(res.status, 401, header);
      t.is(res.headers.get('www-authenticate'), 'Bearer realm="bookings"', header);
    }
    const unknown = await fetch(`${server.url}/api/me`, { headers: { authorization: 'Bearer not-a-known-token' } });
    t.is(unknown.status, 401);
    t.is(unknown.headers.get('www-authenticate'), 'Bearer realm="bookings", error="invalid_token"');
    // A token that is a prefix of a real one is not accepted.
    t.is(
      (await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` } }))
        .status,
      401,
    );
  } finally {
    server.close();
  }
});

test('Bearer: near misses are refused, long tokens too (beyond the padded width), and each token finds its own user', async (t) => {
  const LONG = 'L'.repeat(100);
  const provider = BearerAuthenticationProvider.fromTokens({
    [LONG]: new User('long', ['reader']),
    [READER_TOKEN]: new User('rita', ['reader']),
    ab: new User('short', []),
  });
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider));
  try {
    const status = async (token: string) =>
      (await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).status;
    t.is(
      await (await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${LONG}` } })).text(),
      'long:reader',
    );
    t.is(await (await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ab` } })).text(), 'short:');
    for (const miss of [
      LONG + 'L',
      LONG.slice(0, -1),
      LONG + 'L'.repeat(400),
      'a',
      'abc',
      'ab=',
      READER_TOKEN + 'x',
      'x'.repeat(64),
    ])
      t.is(await status(miss), 401, miss);
  } finally {
    server.close();
  }
});

test('Bearer: a pluggable async verifier; when it fails, the token appears neither in the logs nor in the response', async (t) => {
  const secret = 'super-secret-token-4711';
  const seen: string[] = [];
  const provider = new BearerAuthenticationProvider(async (token) => {
    seen.push(token);
    if (token === secret) throw new Error('session store unavailable');
    return token === 'good' ? new User('verified') : null;
  });
  const logger = recordingLogger();
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider).logger(logger));
  try {
    t.is(
      await (await fetch(`${server.url}/api/me`, { headers: { authorization: 'Bearer good' } })).text(),
      'verified:',
    );
    const failed = await fetch(`${server.url}/api/me`, {
      headers: { authorization: `Bearer ${secret}`, accept: 'application/json' },
    });
    t.is(failed.status, 500);
    const body = await failed.text();
    t.false(body.includes(secret));
    t.false(body.includes('session store'));
    t.true(logger.lines.length > 0, 'the failure is logged');
    t.false(
      logger.lines.some((l) => l.includes(secret)),
      'no log line carries the token',
    );
    t.deepEqual(seen, ['good', secret]);
  } finally {
    server.close();
  }
});

test('Basic: hashed and plain passwords, UTF-8, colons in passwords; the challenge names realm and charset', async (t) => {
  const provider = BasicAuthenticationProvider.fromUsers(
    {
      ada: { passwordHash: await hashPassword('correct horse'), roles: ['admin'] },
      jürgen: { password: 'pä:ss', roles: ['reader'] },
    },
    { realm: 'ops' },
  );
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider));
  try {
    const ok = await fetch(`${server.url}/api/me`, { headers: { authorization: basic('ada', 'correct horse') } });
    t.is(ok.status, 200);
    t.is(await ok.text(), 'ada:admin');
    const unicode = await fetch(`${server.url}/api/me`, { headers: { authorization: basic('jürgen', 'pä:ss') } });
    t.is(await unicode.text(), 'jürgen:reader');
    for (const [user, password] of [
      ['ada', 'wrong'],
      ['ada', 'correct horse '],
      ['nobody', 'correct horse'],
      ['jürgen', 'pä'],
    ]) {
      const res = await fetch(`${server.url}/api/me`, { headers: { authorization: basic(user!, password!) } });
      t.is(res.status, 401, `${user}:${password}`);
      t.is(res.headers.get('www-authenticate'), 'Basic realm="ops", charset="UTF-8"');
    }
    for (const header of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, 'Bearer abc']) {
      t.is((await fetch(`${server.url}/api/me`, { headers: { authorization: header } })).status, 401, header);
    }
    t.is((await fetch(`${server.url}/api/me`)).status, 401);
  } finally {
    server.close();
  }
});

test('Basic: a custom verifier receives the decoded user name and password', async (t) => {
  const calls: Array<[string, string]> = [];
  const provider = new BasicAuthenticationProvider((username, password) => {
    calls.push([username, password]);
    return username === 'svc' && secretsEqual(password, 'x') ? new User('svc', ['admin']) : null;
  });
  const server = await serve(new RestBuilder().register(ApiResource).authenticateWith(provider));
  try {
    t.is((await fetch(`${server.url}/api/admin`, { headers: { authorization: basic('svc', 'x') } })).status, 200);
    t.is((await fetch(`${server.url}/api/admin`, { headers: { authorization: basic('svc', 'y') } })).status, 401);
    t.deepEqual(calls, [
      ['svc', 'x'],
      ['svc', 'y'],
    ]);
  } finally {
    server.close();
  }
});

test('password hashes: salted (two hashes of one password differ), verified, malformed ones never match', async (t) => {
  const a = await hashPassword('pw');
  const b = await hashPassword('pw');
  t.not(a, b);
  t.regex(a, /^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  t.true(await verifyPassword('pw', a));
  t.false(await verifyPassword('pW', a));
  t.false(await verifyPassword('pw', 'plain-text'));
  t.false(await verifyPassword('pw', 'scrypt$99999999$8$1$AAAA$AAAA'));
  t.false(await verifyPassword('pw', 'scrypt$16384$8$1$AAAA$'));
  t.true(secretsEqual('abc', 'abc'));
  t.false(secretsEqual('abc', 'abcd'));
});
