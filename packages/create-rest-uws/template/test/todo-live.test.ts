import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectWebSocket } from 'rest.uws';
import { buildApp } from '../src/app.js';

test('the live socket adds a todo from a message and sends every new todo', async () => {
  const ws = await connectWebSocket(buildApp(), '/todos/live');
  ws.send(JSON.stringify({ title: 'Say it live' }));
  assert.deepEqual((await ws.next()).json(), { id: 1, title: 'Say it live', done: false });
  ws.send('Not JSON');
  assert.deepEqual((await ws.next()).json(), { error: 'A NewTodo has a title of 1 to 200 characters' });
  await ws.close();
});
