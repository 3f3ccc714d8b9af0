import test from 'ava';
import WebSocketClient from 'ws';
import {
  Context,
  GET,
  HttpServerRequest,
  Path,
  RestBuilder,
  trustProxy,
  WebSocket,
  WebSocketConnection,
  type Logger,
  type TrustProxyOptions,
  type TrustSetting,
} from '../../src/index';
import { openRaw } from '../support/raw-http';
import { listen, type RunningServer } from '../support/server';

@Path('/whoami')
class WhoAmI {
  @GET
  who(@Context() request: HttpServerRequest) {
    return {
      address: request.remoteAddress(),
      peer: request.peerAddress(),
      protocol: request.protocol(),
      host: request.host() ?? null,
    };
  }
}

@WebSocket('/live')
class Live {
  open(connection: WebSocketConnection) {
    connection.send(connection.remoteAddress());
  }
}

async function serve(setting?: TrustSetting | TrustProxyOptions | false, logger?: Logger): Promise<RunningServer> {
  const builder = new RestBuilder().register(WhoAmI, Live);
  if (setting !== undefined) builder.use(trustProxy(setting));
  if (logger !== undefined) builder.logger(logger).logRequests({ remoteAddress: true });
  return listen(builder.build());
}

interface Who {
  address: string;
  peer: string;
  protocol: string;
  host: string | null;
}

/** GET /whoami with header lines sent as they are (repeated lines stay separate lines). */
async function whoami(server: RunningServer, ...headerLines: string[]): Promise<Who> {
  const head = ['GET /whoami HTTP/1.1', 'Host: app.internal:8080', ...headerLines, 'Connection: close', '', ''].join(
    '\r\n',
  );
  const connection = openRaw(server.port, head);
  const text = await connection.received((t) => /\r\n\r\n\{.*\}$/.test(t));
  connection.destroy();
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Who;
}

test('off by default: forwarding headers change nothing', async (t) => {
  for (const server of [await serve(), await serve(false)]) {
    t.teardown(server.close);
    t.deepEqual(
      await whoami(
        server,
        'X-Forwarded-For: 203.0.113.9',
        'X-Forwarded-Proto: https',
        'X-Forwarded-Host: evil.example',
        'Forwarded: for=198.51.100.1;proto=https',
      ),
      {
        address: '127.0.0.1',
        peer: '127.0.0.1',
        protocol: 'http',
        host: 'app.internal:8080',
      },
    );
  }
});

test('one trusted hop: the client address, protocol and host its proxy forwarded', async (t) => {
  const server = await serve(1);
  t.teardown(server.close);
  t.deepEqual(
    await whoami(
      server,
      'X-Forwarded-For: 203.0.113.9',
      'X-Forwarded-Proto: https',
      'X-Forwarded-Host: api.example.com',
    ),
    {
      address: '203.0.113.9',
      peer: '127.0.0.1',
      protocol: 'https',
      host: 'api.example.com',
    },
  );
  // A client that sends its own X-Forwarded-For through the proxy: the proxy appends the real address, which wins.
  t.like(await whoami(server, 'X-Forwarded-For: 10.0.0.1, 203.0.113.9'), { address: '203.0.113.9' });
  // Without forwarding headers the connection speaks for itself.
  t.like(await whoami(server), { address: '127.0.0.1', protocol: 'http', host: 'app.internal:8080' });
});

test('a repeated X-Forwarded-For line counts: the proxy’s own line is not hidden behind a forged first one', async (t) => {
  const server = await serve(1);
  t.teardown(server.close);
  t.like(await whoami(server, 'X-Forwarded-For: 6.6.6.6', 'X-Forwarded-For: 203.0.113.9'), { address: '203.0.113.9' });
});

test('hop counts and ranges: forged entries left of the trusted proxies are ignored', async (t) => {
  const two = await serve(2);
  t.teardown(two.close);
  t.like(await whoami(two, 'X-Forwarded-For: 1.1.1.1, 198.51.100.7, 10.0.0.2'), { address: '198.51.100.7' });
  t.like(
    await whoami(two, 'X-Forwarded-For: 10.0.0.2'),
    { address: '10.0.0.2' },
    'fewer hops than trusted: the farthest one',
  );

  const ranges = await serve(['loopback', '10.0.0.0/8']);
  t.teardown(ranges.close);
  t.like(await whoami(ranges, 'X-Forwarded-For: 1.1.1.1, 198.51.100.7, 10.1.2.3'), { address: '198.51.100.7' });
  t.like(
    await whoami(ranges, 'X-Forwarded-For: 1.1.1.1, 8.8.8.8'),
    { address: '8.8.8.8' },
    '8.8.8.8 is no trusted proxy: it is the client',
  );

  // The peer (127.0.0.1) is not trusted: the headers are anyone's words.
  const elsewhere = await serve('10.0.0.0/8');
  t.teardown(elsewhere.close);
  t.like(await whoami(elsewhere, 'X-Forwarded-For: 203.0.113.9', 'X-Forwarded-Proto: https'), {
    address: '127.0.0.1',
    protocol: 'http',
  });

  const byFunction = await serve((address, hop) => hop === 0 || address.startsWith('192.168.'));
  t.teardown(byFunction.close);
  t.like(await whoami(byFunction, 'X-Forwarded-For: 9.9.9.9, 192.168.1.1, 192.168.1.2'), { address: '9.9.9.9' });
});

test('X-Forwarded-Proto and -Host: entry by entry when every proxy appended, else the nearest proxy’s; junk is ignored', async (t) => {
  const server = await serve(2);
  t.teardown(server.close);
  t.like(
    await whoami(
      server,
      'X-Forwarded-For: 203.0.113.9, 10.0.0.2',
      'X-Forwarded-Proto: https, http',
      'X-Forwarded-Host: shop.example, lb.internal',
    ),
    { address: '203.0.113.9', protocol: 'https', host: 'shop.example' },
  );
  t.like(await whoami(server, 'X-Forwarded-For: 203.0.113.9, 10.0.0.2', 'X-Forwarded-Proto: https'), {
    protocol: 'https',
  });
  t.like(
    await whoami(
      server,
      'X-Forwarded-For: 203.0.113.9',
      'X-Forwarded-Proto: javascript:alert(1)',
      'X-Forwarded-Host: evil.example/path?x',
    ),
    { address: '203.0.113.9', protocol: 'http', host: 'app.internal:8080' },
  );
});

test('addresses are read as addresses: ports dropped, IPv6 canonical, IPv4-mapped as IPv4, anything else ends the walk', async (t) => {
  const server = await serve(1);
  t.teardown(server.close);
  t.like(await whoami(server, 'X-Forwarded-For: 203.0.113.9:51234'), { address: '203.0.113.9' });
  t.like(await whoami(server, 'X-Forwarded-For: [2001:DB8:0:0::1]:443'), { address: '2001:db8::1' });
  t.like(await whoami(server, 'X-Forwarded-For: 2001:db8:0:0:0:0:0:2'), { address: '2001:db8::2' });
  t.like(await whoami(server, 'X-Forwarded-For: ::ffff:198.51.100.3'), { address: '198.51.100.3' });
  for (const junk of [
    'unknown',
    '_hidden',
    'fe80::1%eth0',
    '1.2.3.4.5',
    '01.2.3.4',
    '<script>',
    '',
    ' , ',
    'a'.repeat(300),
  ]) {
    t.like(await whoami(server, `X-Forwarded-For: ${junk}`), { address: '127.0.0.1' }, JSON.stringify(junk));
  }
});

test('Forwarded (RFC 7239): quoted strings, IPv6, case; and only when asked for, never mixed with X-Forwarded-*', async (t) => {
  const server = await serve({ trust: 2, headers: 'forwarded' });
  t.teardown(server.close);
  t.like(await whoami(server, 'Forwarded: for=192.0.2.60;proto=https;host=shop.example;by=203.0.113.43'), {
    address: '192.0.2.60',
    protocol: 'https',
    host: 'shop.example',
  });
  t.like(await whoami(server, 'Forwarded: For="[2001:db8:cafe::17]:4711";Proto=HTTPS, for=10.0.0.2'), {
    address: '2001:db8:cafe::17',
    protocol: 'https',
  });
  // A comma and a semicolon inside quotes split nothing.
  t.like(await whoami(server, 'Forwarded: for="198.51.100.1";host="a,b;c", for=10.0.0.2'), {
    address: '198.51.100.1',
    host: 'app.internal:8080',
  });
  t.like(
    await whoami(server, 'Forwarded: for=192.0.2.60', 'Forwarded: for=10.0.0.2'),
    { address: '192.0.2.60' },
    'two lines are one list',
  );
  // This app's proxies set Forwarded: an X-Forwarded-For a client sent through them is ignored (and the reverse below).
  t.like(await whoami(server, 'X-Forwarded-For: 6.6.6.6'), { address: '127.0.0.1' });
  const xff = await serve(1);
  t.teardown(xff.close);
  t.like(await whoami(xff, 'Forwarded: for=6.6.6.6'), { address: '127.0.0.1' });
});

test('hostile Forwarded headers: nothing past what cannot be read is believed', async (t) => {
  const server = await serve({ trust: 'loopback', headers: 'forwarded' });
  t.teardown(server.close);
  const cases: Array<[string, string]> = [
    // A client opens a quote; its proxy's element is swallowed by it: unreadable, so the peer stays the client.
    ['for="6.6.6.6, for=203.0.113.5', '127.0.0.1'],
    ['for="6.6.6.6', '127.0.0.1'],
    // A parameter twice in one element, a pair without a value, no "=", a stray character: the element is void.
    ['for=6.6.6.6;for=7.7.7.7', '127.0.0.1'],
    ['for=', '127.0.0.1'],
    ['for', '127.0.0.1'],
    ['for=203.0.113.5 x', '127.0.0.1'],
    ['for=203.0.113.5;', '127.0.0.1'],
    // unknown, obfuscated and port-only identifiers are no addresses.
    ['for=unknown', '127.0.0.1'],
    ['for=_hidden', '127.0.0.1'],
    ['for="_gazonk:1234"', '127.0.0.1'],
    // Escapes inside quotes are read, not trusted blindly.
    ['for="203.0.113\\.5"', '203.0.113.5'],
    // Loopback in its IPv6 and IPv4-mapped forms is the trusted range too: the walk goes on past both.
    ['for=198.51.100.9, for="[::ffff:127.0.0.1]", for="[::1]"', '198.51.100.9'],
  ];
  for (const [header, address] of cases) t.like(await whoami(server, `Forwarded: ${header}`), { address }, header);
  // A long chain of trusted loopback hops is walked to its end, and costs nothing special.
  const chain = `${Array.from({ length: 150 }, () => 'for=127.0.0.1').join(',')}`;
  t.like(await whoami(server, `Forwarded: for=203.0.113.77,${chain}`), { address: '203.0.113.77' });
});

test('the access log line and WebSocket connections see the forwarded address', async (t) => {
  const lines: any[] = [];
  const at = (obj: unknown, msg?: string) => void lines.push({ ...(obj as object), msg });
  const server = await serve(1, { error: at, warn: at, info: at, debug: at });
  t.teardown(server.close);
  await whoami(server, 'X-Forwarded-For: 203.0.113.9');
  t.like(
    lines.find((l) => l.msg === 'request'),
    { path: '/whoami', remoteAddress: '203.0.113.9' },
  );

  const ws = new WebSocketClient(`ws://127.0.0.1:${server.port}/live`, {
    headers: { 'x-forwarded-for': '198.51.100.20' },
  });
  const first = await new Promise<string>((resolve, reject) => {
    ws.once('message', (data) => resolve(String(data)));
    ws.once('error', reject);
  });
  ws.close();
  t.is(first, '198.51.100.20');
});

test('settings are checked when the plugin is made', (t) => {
  t.throws(() => trustProxy(-1), { message: /hop count is a whole number from 0 to 64/ });
  t.throws(() => trustProxy(1.5), { message: /hop count/ });
  t.throws(() => trustProxy(['10.0.0.0/33']), { message: /"10.0.0.0\/33" is no address, range/ });
  t.throws(() => trustProxy('corporate'), { message: /"corporate" is no address/ });
  t.throws(() => trustProxy({ trust: 1, headers: 'x-real-ip' as any }), {
    message: /headers must be "x-forwarded" or "forwarded"/,
  });
  t.notThrows(() => trustProxy('loopback, 10.0.0.0/8, 2001:db8::/32, 203.0.113.7'));
});
