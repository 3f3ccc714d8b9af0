import test from 'ava';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';
import {
  ApiResponse,
  BearerAuthenticationProvider,
  Consumes,
  DELETE,
  GET,
  MemoryRateLimitStore,
  NotFoundException,
  Path,
  PathParam,
  POST,
  Produces,
  PUT,
  RateLimit,
  Response,
  RestBuilder,
  RolesAllowed,
  User,
  Valid,
  openApi,
  rateLimit,
  byHeader,
  type RateLimitStore,
} from '../../src/index';
import { answerChecker, oasValidator } from '../support/openapi-validator';
import { listen, type RunningServer } from '../support/server';

/** A stored todo, as clients see it: an interface, which TypeScript leaves no trace of at run time. */
interface Todo {
  id: number;
  title: string;
  done: boolean;
}

class NewTodo {
  @IsString() @Length(1, 200) title!: string;
  @IsOptional() @IsBoolean() done?: boolean;
}

/** The same shape as a class, for the document. */
class TodoView {
  @IsInt() id!: number;
  @IsString() title!: string;
  @IsBoolean() done!: boolean;
}

const TODO_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' }, done: { type: 'boolean' } },
  required: ['id', 'title', 'done'],
};

@Path('/todos')
class TodoResource {
  private readonly todos = new Map<number, Todo>();

  @GET
  @Path('/')
  @ApiResponse(200, [TodoView])
  list(): Todo[] {
    return [...this.todos.values()];
  }

  @GET
  @Path('/{id:\\d+}')
  @ApiResponse(200, { schema: TODO_SCHEMA })
  get(@PathParam('id') id: number): Todo {
    const todo = this.todos.get(id);
    if (!todo) throw new NotFoundException(`No todo ${id}`);
    return todo;
  }

  @POST
  @Path('/')
  create(@Valid body: NewTodo): Response {
    const todo = { id: this.todos.size + 1, title: body.title, done: body.done ?? false };
    this.todos.set(todo.id, todo);
    return Response.status(201).header('Location', `/todos/${todo.id}`).entity(todo).build();
  }

  @PUT
  @Path('/{id:\\d+}')
  @Consumes('application/json')
  @Produces('application/json')
  @ApiResponse(200, TodoView, 'The todo as it is now')
  replace(@PathParam('id') id: number, @Valid body: NewTodo): Todo {
    if (!this.todos.has(id)) throw new NotFoundException(`No todo ${id}`);
    const todo = { id, title: body.title, done: body.done ?? false };
    this.todos.set(id, todo);
    return todo;
  }

  @DELETE
  @Path('/{id:\\d+}')
  @RolesAllowed('admin')
  remove(@PathParam('id') id: number): void {
    this.todos.delete(id);
  }

  @POST
  @Path('/{id:\\d+}/remind')
  @RateLimit({ limit: 1, windowSeconds: 3600, key: byHeader('x-client') })
  remind(@PathParam('id') id: number): Response {
    return Response.accepted({ id, reminder: 'queued' }).build();
  }
}

/** A store that fails while `down` is set (its database is unreachable). */
class FlakyStore implements RateLimitStore {
  down = false;
  private readonly memory = new MemoryRateLimitStore();
  hit(key: string, window: Parameters<RateLimitStore['hit']>[1]) {
    if (this.down) throw new Error('rate limit store unreachable');
    return this.memory.hit(key, window);
  }
}

const store = new FlakyStore();

function buildApp() {
  return new RestBuilder()
    .logger({ error() {}, warn() {}, info() {}, debug() {} })
    .authenticateWith(
      BearerAuthenticationProvider.fromTokens({ admin: new User('ada', ['admin']), user: new User('bob', []) }),
    )
    .bodyHandler({ maxBodySize: 1024 })
    .register(new TodoResource())
    .use(rateLimit({ store }))
    .use(openApi({ title: 'Todos', version: '1.0.0' }));
}

async function documentOf(server: RunningServer): Promise<any> {
  return (await fetch(`${server.url}/openapi.json`)).json();
}

test('what the getting-started app declares is documented as it is answered: 201 from Response.status, 404 from a thrown NotFoundException, schemas for interfaces, the Error body with its violations', async (t) => {
  const server = await listen(buildApp().build());
  t.teardown(server.close);
  const doc = await documentOf(server);
  const validate = oasValidator();
  t.true(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 2));

  const create = doc.paths['/todos'].post;
  t.deepEqual(Object.keys(create.responses).sort(), ['201', '400', '401', '413', '415']);
  t.is(create.responses['200'], undefined, 'not 200: the method answers Response.status(201)');
  t.is(create.responses['201'].description, 'Created');
  t.deepEqual(
    doc.paths['/todos/{id}'].get.responses['200'].content['application/json'].schema,
    TODO_SCHEMA,
    'an interface return type described by its schema',
  );
  t.deepEqual(
    doc.paths['/todos'].get.responses['200'].content['application/json'].schema,
    { type: 'array', items: { $ref: '#/components/schemas/TodoView' } },
    '@ApiResponse(200, [TodoView])',
  );
  t.is(doc.paths['/todos/{id}'].put.responses['200'].description, 'The todo as it is now');
  t.is(
    doc.paths['/todos/{id}'].get.responses['404'].description,
    'Not found',
    'the NotFoundException the method throws',
  );
  t.deepEqual(doc.paths['/todos/{id}'].delete.responses['204'], { description: 'No Content' });
  t.deepEqual(doc.paths['/todos/{id}'].get.responses['404'].content, {
    'application/json': { schema: { $ref: '#/components/schemas/Error' } },
    'text/plain': { schema: { type: 'string' } },
  });
  t.deepEqual(doc.components.schemas.Error.required, ['status', 'error', 'message', 'code']);
  t.deepEqual(doc.components.schemas.Error.properties.violations.items.required, ['path', 'constraint', 'message']);
  const remind = doc.paths['/todos/{id}/remind'].post.responses;
  t.deepEqual(Object.keys(remind['202'].content), ['application/json'], 'Response.accepted(...)');
  t.regex(remind['429'].description, /1 requests per 3600 s/);
  t.deepEqual(Object.keys(remind['429'].headers).sort(), [
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'Retry-After',
  ]);
  t.is(doc.paths['/todos'].get.responses['429'], undefined, 'a route without a rate limit cannot answer 429');
});

/** One sample request per documented answer of every operation. */
interface Sample {
  operation: string;
  status: number;
  url: string;
  init?: RequestInit;
  /** Runs before the request (puts the rate limit store down, fills the limit). */
  before?: () => Promise<void> | void;
  after?: () => void;
}

/** A number past Number.MAX_VALUE: it matches \\d+, and converts to no finite number (400). */
const HUGE = '9'.repeat(400);
const admin = { authorization: 'Bearer admin' };
const user = { authorization: 'Bearer user' };
const json = (body: unknown, headers: Record<string, string> = admin): RequestInit => ({
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function samples(server: RunningServer): Sample[] {
  return [
    { operation: 'GET /todos', status: 200, url: '/todos', init: { headers: admin } },
    { operation: 'GET /todos', status: 401, url: '/todos' },
    { operation: 'POST /todos', status: 201, url: '/todos', init: json({ title: 'Write the docs' }) },
    { operation: 'POST /todos', status: 400, url: '/todos', init: json({ title: '' }) },
    { operation: 'POST /todos', status: 401, url: '/todos', init: json({ title: 'x' }, {}) },
    { operation: 'POST /todos', status: 413, url: '/todos', init: json({ title: 'x'.repeat(2000) }) },
    {
      operation: 'POST /todos',
      status: 415,
      url: '/todos',
      init: { method: 'POST', headers: { ...admin, 'content-type': 'text/csv' }, body: 'title\nx' },
    },
    { operation: 'GET /todos/{id}', status: 200, url: '/todos/1', init: { headers: admin } },
    { operation: 'GET /todos/{id}', status: 400, url: `/todos/${HUGE}`, init: { headers: admin } },
    { operation: 'GET /todos/{id}', status: 401, url: '/todos/1' },
    { operation: 'GET /todos/{id}', status: 404, url: '/todos/42', init: { headers: admin } },
    {
      operation: 'PUT /todos/{id}',
      status: 200,
      url: '/todos/1',
      init: { ...json({ title: 'Done', done: true }), method: 'PUT' },
    },
    { operation: 'PUT /todos/{id}', status: 400, url: '/todos/1', init: { ...json({ title: 7 }), method: 'PUT' } },
    {
      operation: 'PUT /todos/{id}',
      status: 401,
      url: '/todos/1',
      init: { ...json({ title: 'x' }, {}), method: 'PUT' },
    },
    { operation: 'PUT /todos/{id}', status: 404, url: '/todos/42', init: { ...json({ title: 'x' }), method: 'PUT' } },
    {
      operation: 'PUT /todos/{id}',
      status: 406,
      url: '/todos/1',
      init: {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json', accept: 'image/png' },
        body: '{"title":"x"}',
      },
    },
    {
      operation: 'PUT /todos/{id}',
      status: 413,
      url: '/todos/1',
      init: { ...json({ title: 'x'.repeat(2000) }), method: 'PUT' },
    },
    {
      operation: 'PUT /todos/{id}',
      status: 415,
      url: '/todos/1',
      init: { method: 'PUT', headers: { ...admin, 'content-type': 'text/plain' }, body: 'x' },
    },
    { operation: 'DELETE /todos/{id}', status: 204, url: '/todos/1', init: { method: 'DELETE', headers: admin } },
    { operation: 'DELETE /todos/{id}', status: 400, url: `/todos/${HUGE}`, init: { method: 'DELETE', headers: admin } },
    { operation: 'DELETE /todos/{id}', status: 401, url: '/todos/1', init: { method: 'DELETE' } },
    { operation: 'DELETE /todos/{id}', status: 403, url: '/todos/1', init: { method: 'DELETE', headers: user } },
    { operation: 'DELETE /todos/{id}', status: 404, url: '/todos/abc', init: { method: 'DELETE', headers: admin } },
    // Each client has a bucket of its own (x-client): one request each, but the second of client 1.
    {
      operation: 'POST /todos/{id}/remind',
      status: 202,
      url: '/todos/1/remind',
      init: { method: 'POST', headers: { ...admin, 'x-client': '1' } },
    },
    {
      operation: 'POST /todos/{id}/remind',
      status: 429,
      url: '/todos/1/remind',
      init: { method: 'POST', headers: { ...admin, 'x-client': '1' } },
    },
    {
      operation: 'POST /todos/{id}/remind',
      status: 400,
      url: `/todos/${HUGE}/remind`,
      init: { method: 'POST', headers: { ...admin, 'x-client': '2' } },
    },
    {
      operation: 'POST /todos/{id}/remind',
      status: 401,
      url: '/todos/1/remind',
      init: { method: 'POST', headers: { authorization: 'Bearer nobody', 'x-client': '3' } },
    },
    {
      operation: 'POST /todos/{id}/remind',
      status: 404,
      url: '/todos/x/remind',
      init: { method: 'POST', headers: admin },
    },
    {
      operation: 'POST /todos/{id}/remind',
      status: 503,
      url: '/todos/1/remind',
      init: { method: 'POST', headers: { ...admin, 'x-client': '4' } },
      before: () => void (store.down = true),
      after: () => void (store.down = false),
    },
  ].map((s) => ({ ...s, url: `${server.url}${s.url}` }));
}

test('every documented answer of every operation is what the server sends for a sample request: status, media type, body against its schema', async (t) => {
  const server = await listen(buildApp().build());
  t.teardown(server.close);
  const doc = await documentOf(server);
  const check = answerChecker(doc);
  const table = samples(server);

  const documented = Object.entries<any>(doc.paths).flatMap(([template, item]) =>
    Object.entries<any>(item).flatMap(([method, op]) =>
      Object.keys(op.responses).map((status) => `${method.toUpperCase()} ${template} ${status}`),
    ),
  );
  const sampled = table.map((s) => `${s.operation} ${s.status}`);
  t.deepEqual(
    [...documented].sort(),
    [...new Set(sampled)].sort(),
    'a sample for each documented answer, and no answer the document leaves out',
  );

  for (const sample of table) {
    await sample.before?.();
    try {
      const res = await fetch(sample.url, sample.init);
      const body = await res.text();
      t.is(res.status, sample.status, `${sample.operation} ${sample.url}: ${body.slice(0, 200)}`);
      t.deepEqual(
        check(sample.operation, { status: res.status, contentType: res.headers.get('content-type'), body }),
        [],
        `${sample.operation} ${sample.status}`,
      );
      const headers =
        doc.paths[sample.operation.split(' ')[1]!][sample.operation.split(' ')[0]!.toLowerCase()].responses[
          String(sample.status)
        ].headers ?? {};
      for (const name of Object.keys(headers))
        t.not(
          res.headers.get(name),
          null,
          `${sample.operation} ${sample.status}: the documented ${name} header is sent`,
        );
    } finally {
      sample.after?.();
    }
  }
});
