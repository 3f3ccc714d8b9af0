import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inject } from 'rest.uws';
import { buildApp } from '../src/app.js';

// PATCH /todos/{id} validates its body with a Zod schema (src/todo-change.ts).
test('a change validated by the Zod schema is applied, its title trimmed', async () => {
  const app = buildApp();
  await inject(app, { method: 'POST', url: '/todos', body: { title: 'Write the docs' } });
  const changed = await inject(app, {
    method: 'PATCH',
    url: '/todos/1',
    body: { title: '  Ship the docs ', done: true },
  });
  assert.equal(changed.statusCode, 200);
  assert.deepEqual(changed.json(), { id: 1, title: 'Ship the docs', done: true });
});

test('a change the Zod schema refuses answers 400 with the violation', async () => {
  const app = buildApp();
  await inject(app, { method: 'POST', url: '/todos', body: { title: 'Write the docs' } });
  const refused = await inject(app, { method: 'PATCH', url: '/todos/1', body: { done: 'yes' } });
  assert.equal(refused.statusCode, 400);
  const body = refused.json();
  assert.equal(body.message, 'Validation failed');
  assert.deepEqual(body.violations, [
    {
      in: 'body',
      path: 'done',
      constraint: 'invalid_type',
      message: 'Invalid input: expected boolean, received string',
    },
  ]);
  assert.deepEqual((await inject(app, '/todos/1')).json(), { id: 1, title: 'Write the docs', done: false });
});
