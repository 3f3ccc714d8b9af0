import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inject, injectEvents } from 'rest.uws';
import { buildApp } from '../src/app.js';

test('a new todo is announced on the event stream', async () => {
  const app = buildApp();
  const stream = await injectEvents(app, '/todos/events');
  assert.equal(stream.statusCode, 200);
  await inject(app, { method: 'POST', url: '/todos', body: { title: 'Stream it' } });
  const event = await stream.next();
  assert.equal(event?.event, 'created');
  assert.equal(event?.id, '1');
  assert.deepEqual(event?.json(), { id: 1, title: 'Stream it', done: false });
  await stream.close();
});
