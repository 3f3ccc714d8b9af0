import test from 'ava';
import { parseSetCookie } from 'cookie';
import {
  Context,
  CookieParam,
  Cookies,
  CookieSigner,
  cookies,
  GET,
  Optional,
  Path,
  POST,
  QueryParam,
  RegistrationError,
  RestBuilder,
  serializeCookie,
  type Logger,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';

const KEY_1 = 'k1-0123456789abcdef0123456789abcdef';
const KEY_2 = 'k2-fedcba9876543210fedcba9876543210';

const quiet: Logger = { error() {}, warn() {}, info() {}, debug() {} };

@Path('/')
class CookieResource {
  @POST
  @Path('login')
  login(@QueryParam('user') user: string, @Context() jar: Cookies): string {
    jar
      .set('session', user, { signed: true, httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 3600 })
      .set('theme', 'dark mode; yes=1', { path: '/', sameSite: 'strict' })
      .set('embed', 'on', {
        secure: true,
        sameSite: 'none',
        partitioned: true,
        domain: 'example.com',
        expires: new Date(Date.UTC(2030, 0, 1)),
        priority: 'high',
      });
    return 'ok';
  }

  @GET
  @Path('me')
  me(@CookieParam('session', { signed: true }) user: string, @CookieParam('theme') @Optional theme?: string): object {
    return { user, theme: theme ?? null };
  }

  @GET
  @Path('maybe')
  maybe(
    @CookieParam('session', { signed: true, optional: true }) user: string | undefined,
    @Context() jar: Cookies,
  ): object {
    return { user: user ?? null, viaJar: jar.getSigned('session') ?? null, raw: jar.get('session') ?? null };
  }

  @POST
  @Path('logout')
  logout(@Context() jar: Cookies): string {
    jar.clear('session', { path: '/' });
    return 'bye';
  }
}

@Path('/plain')
class PlainCookie {
  @GET
  plain(@CookieParam('token') token: string): string {
    return token;
  }
}

async function serve(keys: string[]): Promise<RunningServer> {
  return listen(new RestBuilder().logger(quiet).use(cookies({ keys })).register(CookieResource).build());
}

/** The `name=value` of a Set-Cookie, as a browser sends it back. */
function sendBack(setCookie: string): string {
  return setCookie.slice(0, setCookie.indexOf(';'));
}

test('several cookies on one answer, with every attribute, each its own Set-Cookie header', async (t) => {
  const server = await serve([KEY_1]);
  t.teardown(server.close);
  const res = await fetch(`${server.url}/login?user=ada`, { method: 'POST' });
  t.is(res.status, 200);
  const [session, theme, embed] = res.headers.getSetCookie();
  t.regex(session!, /^session=ada\.[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  t.is(theme, 'theme=dark%20mode%3B%20yes%3D1; Path=/; SameSite=Strict');
  t.is(
    embed,
    'embed=on; Domain=example.com; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Secure; Partitioned; Priority=High; SameSite=None',
  );
  t.like(parseSetCookie(embed!), {
    name: 'embed',
    value: 'on',
    domain: 'example.com',
    secure: true,
    partitioned: true,
    sameSite: 'none',
  });

  // Sent back, the signed one reads through @CookieParam(signed) and the encoded one decodes.
  const me = await fetch(`${server.url}/me`, { headers: { cookie: `${sendBack(session!)}; ${sendBack(theme!)}` } });
  t.deepEqual(await me.json(), { user: 'ada', theme: 'dark mode; yes=1' });

  const bye = await fetch(`${server.url}/logout`, { method: 'POST' });
  t.deepEqual(bye.headers.getSetCookie(), ['session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
});

test('forged signed cookies read as no cookie: changed value, changed or cut signature, unsigned, another name, another key', async (t) => {
  const server = await serve([KEY_1]);
  t.teardown(server.close);
  const signed = new CookieSigner([KEY_1]).sign('session', 'ada');
  const signature = signed.slice(signed.lastIndexOf('.') + 1);
  const forged = [
    `admin.${signature}`, // another value, the signature of "ada"
    `ada.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, // one character of the signature changed
    `ada.${signature.slice(0, 20)}`, // cut
    `ada.${signature}.`, // trailing junk
    `ada.${signature}==`, // padding junk (base64url decoders skip it)
    'ada', // unsigned
    new CookieSigner([KEY_1]).sign('token', 'ada'), // signed for another cookie name
    new CookieSigner([KEY_2]).sign('session', 'ada'), // signed with a key this app does not have
    '',
  ];
  for (const value of forged) {
    const cookie = `session=${encodeURIComponent(value)}`;
    const required = await fetch(`${server.url}/me`, { headers: { cookie, accept: 'application/json' } });
    t.is(required.status, 400, value);
    t.like(await required.json(), { code: 'RU_ERR_MISSING_ARGUMENT' });
    const optional = await fetch(`${server.url}/maybe`, { headers: { cookie } });
    t.like(await optional.json(), { user: null, viaJar: null }, value);
  }
  const genuine = await fetch(`${server.url}/maybe`, { headers: { cookie: `session=${encodeURIComponent(signed)}` } });
  t.deepEqual(await genuine.json(), { user: 'ada', viaJar: 'ada', raw: signed });
});

test('key rotation: the first key signs, every key verifies; a retired key no longer does', async (t) => {
  const old = await serve([KEY_1]);
  t.teardown(old.close);
  const issued = sendBack((await fetch(`${old.url}/login?user=grace`, { method: 'POST' })).headers.getSetCookie()[0]!);

  const rotated = await serve([KEY_2, KEY_1]);
  t.teardown(rotated.close);
  t.deepEqual(await (await fetch(`${rotated.url}/maybe`, { headers: { cookie: issued } })).json(), {
    user: 'grace',
    viaJar: 'grace',
    raw: decodeURIComponent(issued.slice('session='.length)),
  });
  const reissued = sendBack(
    (await fetch(`${rotated.url}/login?user=grace`, { method: 'POST' })).headers.getSetCookie()[0]!,
  );
  t.not(reissued, issued);

  const retired = await serve([KEY_2]);
  t.teardown(retired.close);
  t.like(await (await fetch(`${retired.url}/maybe`, { headers: { cookie: issued } })).json(), { user: null });
  t.like(await (await fetch(`${retired.url}/maybe`, { headers: { cookie: reissued } })).json(), { user: 'grace' });
});

test('plain cookies: percent-decoded, "+" kept (base64 values), the first of a repeated name wins', async (t) => {
  const server = await listen(new RestBuilder().register(PlainCookie).build());
  t.teardown(server.close);
  const read = async (cookie: string) => (await fetch(`${server.url}/plain`, { headers: { cookie } })).text();
  t.is(await read('token=ab+cd/ef=='), 'ab+cd/ef==');
  t.is(await read('token=a%20b%3Bc'), 'a b;c');
  t.is(await read('token=first; token=second'), 'first');
  t.is(await read('other=1; token="quoted"'), 'quoted');
  t.is(await read('token=%E0%A4%A'), '%E0%A4%A', 'a malformed escape is kept as it is');
});

test('mistakes fail early: signed @CookieParam without keys, weak keys, attributes browsers would drop', (t) => {
  const error = t.throws(() => new RestBuilder().use(cookies()).register(CookieResource).build(), {
    instanceOf: RegistrationError,
  });
  t.regex(
    error!.message,
    /CookieResource\.me\(\) parameter 0: @CookieParam\("session", \{ signed: true \}\) needs the app's signing keys: use\(cookies\(\{ keys: \[\.\.\.\] \}\)\)/,
  );
  t.is((error as RegistrationError).code, 'RU_ERR_SIGNED_COOKIE_KEYS');
  t.throws(() => cookies({ keys: ['short'] }), { message: /key 0 must be a string or Buffer of at least 32 bytes/ });
  t.throws(() => cookies({ keys: [] }), { message: /keys is a list of secrets/ });
  t.throws(() => serializeCookie('a', 'b', { sameSite: 'none' }), { message: /sameSite: 'none' needs secure: true/ });
  t.throws(() => serializeCookie('a', 'b', { partitioned: true }), { message: /partitioned needs secure: true/ });
  t.throws(() => serializeCookie('a', 'b', { sameSite: 'sometimes' as any }), {
    message: /sameSite must be 'strict', 'lax' or 'none'/,
  });
  t.throws(() => serializeCookie('a', 'b', { maxAge: 1.5 }), { message: /maxAge is a whole number/ });
  t.throws(() => serializeCookie('a', 'b', { expires: new Date('nope') }), { message: /expires must be a valid Date/ });
  t.throws(() => serializeCookie('bad name', 'b'), { message: /name/ });
  t.throws(() => serializeCookie('a', 'b', { domain: 'evil.com; Secure' }), { message: /domain/ });
  t.throws(() => serializeCookie('a', 'b', { path: '/x;HttpOnly' }), { message: /path/ });
});

test('a route that sets a cookie with an attribute browsers would drop answers 500, and sends no cookie', async (t) => {
  @Path('/broken')
  class Broken {
    @GET
    broken(@Context() jar: Cookies): string {
      jar.set('x', 'y', { sameSite: 'none' });
      return 'never';
    }
  }
  const server = await listen(new RestBuilder().logger(quiet).use(cookies()).register(Broken).build());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/broken`);
  t.is(res.status, 500);
  t.deepEqual(res.headers.getSetCookie(), []);
});
