import test from 'ava';
import 'reflect-metadata';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import {
  Consumes,
  GET,
  Handles,
  Path,
  POST,
  RequestReader,
  Response,
  RestBuilder,
  Valid,
  type ValueReader,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';

/**
 * A `@Valid` body must be an object of its class that passed validation, whatever reader made it, or the
 * request ends before the method runs. The app is the getting-started guide's (docs/getting-started.md),
 * plus an app reader of its own; the store is what the tests check.
 */

class NewTodo {
  @IsString()
  @Length(1, 200)
  title!: string;

  @IsOptional()
  @IsBoolean()
  done?: boolean;
}

interface Todo {
  id: number;
  title: string;
  done: boolean;
}

class TodoStore {
  readonly todos: Todo[] = [];
  add(input: NewTodo): Todo {
    const todo = { id: this.todos.length + 1, title: input.title, done: input.done ?? false };
    this.todos.push(todo);
    return todo;
  }
}

/** An app's own reader for its own media type: gives the text as it is (a string), or a plain object for `{...}`. */
@Consumes('application/vnd.todo')
class TodoTextReader implements ValueReader<unknown> {
  read(value: string): unknown {
    return value.startsWith('{') ? (JSON.parse(value) as unknown) : value;
  }
}

class NotATodo {
  title = 'from the wrong class';
}

/** A reader on the route itself that gives an object of another class. */
@Handles(NewTodo)
class WrongClassReader implements ValueReader<unknown> {
  read(): unknown {
    return new NotATodo();
  }
}

@Path('/todos')
class TodoResource {
  constructor(private readonly store: TodoStore) {}

  @GET
  @Path('/')
  list(): Todo[] {
    return this.store.todos;
  }

  @POST
  @Path('/')
  create(@Valid body: NewTodo): Response {
    const todo = this.store.add(body);
    return Response.status(201).header('Location', `/todos/${todo.id}`).entity(todo).build();
  }

  @POST
  @Path('/wrong-reader')
  @RequestReader(WrongClassReader)
  createWithWrongReader(@Valid body: NewTodo): Response {
    return Response.status(201).entity(this.store.add(body)).build();
  }
}

const store = new TodoStore();
let server: RunningServer;
test.before(async () => {
  server = await listen(new RestBuilder().register(new TodoResource(store)).reader(TodoTextReader).build());
});
test.after.always(() => server.close());

async function post(
  body: string,
  contentType: string | undefined,
  path = '/todos',
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  // fetch adds text/plain to a string body without a Content-Type: send bytes to send none.
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: contentType === undefined ? Buffer.from(body) : body,
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

const refused: Array<[string, string, string | undefined, number, RegExp]> = [
  [
    "text/plain JSON (the issue's case: was 201 with a todo without a title)",
    '{"title":"x"}',
    'text/plain',
    415,
    /text\/plain.*send application\/json/,
  ],
  ['text/plain with charset', '{"title":"x"}', 'text/plain; charset=utf-8', 415, /text\/plain/],
  ['text/plain text', 'buy milk', 'text/plain', 415, /NewTodo/],
  ['an app reader giving a string', 'buy milk', 'application/vnd.todo', 415, /application\/vnd\.todo/],
  [
    'an app reader giving a plain object that fails the constraints',
    '{"title":""}',
    'application/vnd.todo',
    400,
    /Validation failed/,
  ],
  ['a form failing the constraints', 'title=', 'application/x-www-form-urlencoded', 400, /Validation failed/],
  [
    'a form with a field of the wrong type',
    'title=x&done=maybe',
    'application/x-www-form-urlencoded',
    400,
    /Validation failed/,
  ],
  ['no Content-Type, invalid JSON object', '{"title":""}', undefined, 400, /Validation failed/],
  ['no Content-Type, a JSON string', '"x"', undefined, 400, /JSON object/],
  ['JSON array for one todo', '[{"title":"x"}]', 'application/json', 400, /array/],
  ['JSON null', 'null', 'application/json', 400, /null/],
];

for (const [name, body, contentType, status, message] of refused) {
  test.serial(`@Valid body: ${name} ends with ${status} before the method runs; nothing is stored`, async (t) => {
    const before = store.todos.length;
    const res = await post(body, contentType);
    t.is(res.status, status, JSON.stringify(res.body));
    t.regex(res.body.message, message);
    t.is(store.todos.length, before);
  });
}

test.serial('@Valid body: a reader giving an object of another class ends with 400; nothing is stored', async (t) => {
  const before = store.todos.length;
  const res = await post('{"title":"x"}', 'application/json', '/todos/wrong-reader');
  t.is(res.status, 400);
  t.regex(res.body.message, /must be a NewTodo.*an object that is not a NewTodo/);
  t.is(store.todos.length, before);
});

const accepted: Array<[string, string, string | undefined, Partial<Todo>]> = [
  ['JSON', '{"title":"json"}', 'application/json', { title: 'json', done: false }],
  ['no Content-Type (read as JSON)', '{"title":"bare","done":true}', undefined, { title: 'bare', done: true }],
  ['a form', 'title=form', 'application/x-www-form-urlencoded', { title: 'form', done: false }],
  ['an app reader giving a plain object', '{"title":"vnd"}', 'application/vnd.todo', { title: 'vnd', done: false }],
];

for (const [name, body, contentType, expected] of accepted) {
  test.serial(`@Valid body: valid ${name} is stored (201)`, async (t) => {
    const res = await post(body, contentType);
    t.is(res.status, 201, JSON.stringify(res.body));
    t.like(res.body, expected);
    t.like(store.todos.at(-1), expected);
  });
}
