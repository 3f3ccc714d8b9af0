import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inject } from 'rest.uws';
import { buildApp } from '../src/app.js';

test('a created todo is listed and can be read back', async () => {
  const app = buildApp();
  const created = await inject(app, { method: 'POST', url: '/todos', body: { title: 'Write the docs' } });
  assert.equal(created.statusCode, 201);
  assert.equal(created.headers.location, '/todos/1');
  assert.deepEqual(created.json(), { id: 1, title: 'Write the docs', done: false });

  const read = await inject(app, '/todos/1');
  assert.equal(read.statusCode, 200);
  assert.deepEqual(read.json(), { id: 1, title: 'Write the docs', done: false });
  assert.deepEqual((await inject(app, '/todos')).json(), [{ id: 1, title: 'Write the docs', done: false }]);
});

test('a missing todo answers 404 through the exception handler', async () => {
  const response = await inject(buildApp(), '/todos/42');
  assert.equal(response.statusCode, 404);
  assert.deepEqual(response.json(), { status: 404, message: 'No todo 42' });
});

test('an invalid todo answers 400 and says which field is wrong', async () => {
  const response = await inject(buildApp(), { method: 'POST', url: '/todos', body: { title: '' } });
  assert.equal(response.statusCode, 400);
  const body = response.json();
  assert.equal(body.message, 'Validation failed');
  assert.equal(body.violations[0].path, 'title');
});
