import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Server, startServer } from 'rest.uws';
import WebSocket from 'ws';
import { createClient, type WebSocketClass } from '../src/api-client.js';
import { buildApp } from '../src/app.js';

// The typed client (src/api-client.ts, written by npm run client) calls a real server, as a browser or another
// service would: its arguments and answers are typed from the app's OpenAPI and AsyncAPI documents.
let server: Server;
let api: ReturnType<typeof createClient>;

before(async () => {
  server = await startServer(buildApp(), { port: 0, host: '127.0.0.1' });
  // Node 20 has no global WebSocket: the ws package's stands in (Node 22 and browsers have one).
  api = createClient({ baseUrl: `http://127.0.0.1:${server.port}`, WebSocket: WebSocket as unknown as WebSocketClass });
});

after(() => server.shutdown());

test('the typed client creates a todo, reads it back and tells a 404 by its status', async () => {
  const created = await api.TodoResource.create({ body: { title: 'Call it typed' } });
  assert.equal(created.status, 201);
  const id = created.status === 201 ? created.data.id : 0;

  const read = await api.TodoResource.get({ path: { id } });
  assert.equal(read.status, 200);
  assert.deepEqual(read.data, { id, title: 'Call it typed', done: false });

  const missing = await api.TodoResource.get({ path: { id: 404 } });
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.data, { status: 404, message: 'No todo 404' });
});

test('the typed client sends a todo on the live socket and receives the todos added', async () => {
  const live = await api.ws.TodoLive.connect();
  await live.opened;
  live.send({ title: 'Say it typed' });
  const todo = await live.next();
  assert.equal('title' in todo && todo.title, 'Say it typed');
  await live.close();
});
