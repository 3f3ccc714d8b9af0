/**
 * What uWebSockets.js does with requests rest.uws never sees (docs/deployment.md, "HTTP/1.1 only"): HTTP/1.0,
 * absolute-form (`GET http://host/path`) and asterisk-form (`OPTIONS *`) requests reach no callback of the app on
 * either build. v20.30 leaves the connection open until its idle timeout (about 10 s) and closes it without an
 * answer; v20.57 answers `505 HTTP Version Not Supported` itself and closes. These tests pin that down, so that a
 * build that starts handing such requests to the app shows up here (rest.uws would then answer them).
 */
import test from 'ava';
import { GET, Path, RestBuilder } from '../../src/index';
import { openRaw } from '../support/raw-http';
import { listen } from '../support/server';

const calls: string[] = [];

@Path('/health')
class Health {
  @GET ok() {
    calls.push('health');
    return 'ok';
  }
}

const unseen: Array<[string, string]> = [
  ['HTTP/1.0 (an nginx upstream without proxy_http_version 1.1)', 'GET /health HTTP/1.0\r\n\r\n'],
  ['HTTP/1.0 with Host and keep-alive', 'GET /health HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'],
  ['HTTP/1.0 health check of HAProxy (option httpchk)', 'OPTIONS / HTTP/1.0\r\n\r\n'],
  ['absolute-form', 'GET http://x/health HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['asterisk-form', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
];

for (const [name, request] of unseen) {
  test(`${name} reaches no route: closed without an answer (v20.30) or with uWebSockets.js's own 505 (v20.57)`, async (t) => {
    const server = await listen(new RestBuilder().register(Health).build());
    t.teardown(() => server.close());
    const before = calls.length;
    const connection = openRaw(server.port, request, 20_000);
    t.true(await connection.closed, 'closed (v20.30: at its idle timeout)');
    const text = connection.text();
    t.true(text === '' || /^HTTP\/1\.1 505 HTTP Version Not Supported\r\n/.test(text), text.slice(0, 200));
    t.is(calls.length, before, 'no route ran');
    // The same server answers HTTP/1.1 as usual.
    t.is(await (await fetch(`${server.url}/health`)).text(), 'ok');
  });
}
