import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { headerOf, requestOnce, type RawAnswer } from 'app-support/testing';
import { API } from './helpers/api-client';
import { createBody } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';

// The nginx front of docs/deployment.md, as the page shows it, in front of the booking API started with
// `--trust-proxy 1` and no public URL: a client's forged Host, X-Forwarded-Host and X-Forwarded-Proto must not
// choose the links the API writes (Location, pagination). The same configuration without the lines that set those
// headers lets the forgery through, which shows what the lines are for and that this test sees it.

const NGINX = '/usr/sbin/nginx';
const PUBLIC_HOST = 'booking.example.com';

/** The nginx block of docs/deployment.md. */
function documentedConfig(): string {
  const page = fs.readFileSync(path.resolve(__dirname, '../../../../docs/deployment.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/deployment.md has no nginx block');
  return block;
}

/** The documented server, listening on plain HTTP at `port` and forwarding to the one instance at `upstream`. */
function runnableConfig(block: string, port: number, upstream: number, folder: string): string {
  const server = block
    .replace(/^\s*server 10\.0\.0\.\d+:8081.*$/gm, '')
    .replace(/(upstream booking_api \{)/, `$1\n    server 127.0.0.1:${upstream};`)
    .replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`);
  if (server.includes('443') || !server.includes(`127.0.0.1:${upstream}`))
    throw new Error(`the nginx block of docs/deployment.md no longer has the shape this test adapts:\n${block}`);
  return [
    `pid ${folder}/nginx.pid;`,
    `error_log ${folder}/error.log;`,
    'events {}',
    'http {',
    `  access_log off;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${folder}/${kind};`),
    server,
    '}',
  ].join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** nginx in the foreground with `config`; resolves once it accepts connections. */
async function startNginx(config: string, port: number): Promise<ChildProcess> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-forwarding-'));
  const file = path.join(folder, 'nginx.conf');
  fs.writeFileSync(file, config.replaceAll('@FOLDER@', folder));
  const check = spawnSync(NGINX, ['-t', '-p', folder, '-c', file, '-g', 'daemon off; master_process off;'], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`nginx refuses the configuration:\n${check.stderr}\n${config}`);
  const child = spawn(NGINX, ['-p', folder, '-c', file, '-g', 'daemon off; master_process off;'], { stdio: 'ignore' });
  for (let i = 0; i < 500; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return child;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  child.kill('SIGKILL');
  throw new Error('nginx did not start');
}

/** What a forging client sends through the proxy, with its partner key. */
const forged = (key: string): Array<[string, string]> => [
  ['Host', 'evil.example'],
  ['Authorization', `Bearer ${key}`],
  ['X-Forwarded-Host', 'evil.example'],
  ['X-Forwarded-Proto', 'gopher'],
  ['Forwarded', 'for=198.51.100.1;host=evil.example;proto=https'],
  ['Content-Type', 'application/json'],
];

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

test('behind the documented nginx, a client cannot choose the host or scheme of the booking API links', async (t) => {
  t.timeout(120_000);
  if (!fs.existsSync(NGINX)) return t.fail('nginx is missing: apt-get install -y --no-install-recommends nginx');
  const database = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-forwarding-db-')), 'booking.db');
  const api = await startHttpFixture(database, { trustProxy: 1 });
  t.teardown(() => api.server.close());
  const upstream = Number(new URL(api.server.url).port);

  const through = async (block: string) => {
    const port = await freePort();
    const nginx = await startNginx(runnableConfig(block, port, upstream, '@FOLDER@'), port);
    try {
      const created = await requestOnce(
        port,
        'POST',
        `${API}/booking`,
        forged(api.aliceKey),
        JSON.stringify(createBody(1, 0)),
      );
      await requestOnce(port, 'POST', `${API}/booking`, forged(api.aliceKey), JSON.stringify(createBody(1, 0)));
      const listed = await requestOnce(port, 'GET', `${API}/booking?limit=1`, forged(api.aliceKey));
      return { created, listed };
    } finally {
      nginx.kill('SIGTERM');
    }
  };

  const documented = await through(documentedConfig());
  t.is(documented.created.status, 201, documented.created.body.toString());
  t.regex(headerOf(documented.created, 'location') ?? '', new RegExp(`^http://${PUBLIC_HOST}${API}/booking/`));
  t.regex(json(documented.listed).nextUrl, new RegExp(`^http://${PUBLIC_HOST}${API}/booking\\?`));

  // The same front without the lines that set Host and X-Forwarded-Host: the client's own headers reach the app.
  const leaky = documentedConfig()
    .split('\n')
    .filter((line) => !/proxy_set_header (Host|X-Forwarded-Host) /.test(line))
    .join('\n');
  const attacked = await through(leaky);
  t.is(attacked.created.status, 201);
  t.regex(headerOf(attacked.created, 'location') ?? '', /^http:\/\/evil\.example\//);
});
