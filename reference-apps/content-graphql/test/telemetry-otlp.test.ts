import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { otlpAttribute as attr, otlpReceiver } from 'app-support/testing';

const MAIN = resolve(__dirname, '..', 'src', 'main.js');

test('with OTEL_EXPORTER_OTLP_ENDPOINT, main sends the request span and the GraphQL spans under it', async (t) => {
  t.timeout(120_000);
  const receiver = await otlpReceiver();
  t.teardown(() => receiver.close());
  const dir = await mkdtemp(join(tmpdir(), 'content-otlp-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      CONTENT_GRAPHQL_PORT: '0',
      HOST: '127.0.0.1',
      CONTENT_GRAPHQL_DATABASE_URL: join(dir, 'content.db'),
      ASSETS_DIR: join(dir, 'assets'),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'content-graphql-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
  });
  let output = '';
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  t.teardown(() => void child.kill('SIGKILL'));
  const url = await new Promise<string>((found, failed) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) found(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => failed(new Error(`main exited with ${code}:\n${output}`)));
  });

  const traceId = '6e0c63257de34c926f9efcd03899aa1b';
  const res = await fetch(`${url}/api`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    body: JSON.stringify({ query: 'query Ping { ping }', operationName: 'Ping' }),
  });
  t.deepEqual(await res.json(), { data: { ping: 'pong' } });

  const request = await receiver.until(() =>
    receiver.spans.find((s) => s.traceId === traceId && s.kind === 2 && s.name === 'POST /api'),
  );
  t.is(request.service, 'content-graphql-under-test');
  t.is(request.parentSpanId, '00f067aa0ba902b7');
  const operation = await receiver.until(() => receiver.spans.find((s) => s.traceId === traceId && s.name === 'query'));
  t.is(operation.parentSpanId, request.spanId);
  t.is(attr(operation, 'graphql.operation.name'), 'Ping');
  t.is(attr(operation, 'graphql.operation.type'), 'query');
  const execute = await receiver.until(() =>
    receiver.spans.find((s) => s.traceId === traceId && s.name === 'graphql.execute'),
  );
  t.is(execute.parentSpanId, operation.spanId);

  child.kill('SIGTERM');
  t.is(await exited, 0, output);
});
