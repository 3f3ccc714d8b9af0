import { ApiResponse, GET, PATCH, POST, Path, PathParam, Response, Valid } from 'rest.uws';
import { EventStream, ServerSentEvent, ServerSentEvents } from 'rest.uws';
import type { z } from 'zod';
import { NewTodo, Todo, TodoStore } from './todo.js';
import { TodoChange } from './todo-change.js';

// @ApiResponse says what TypeScript's metadata cannot: an array's items, the entity of a Response, and the 404 the
// store throws. The OpenAPI document, and the client generated from it (npm run client), are typed from it.
@Path('/todos')
export class TodoResource {
  constructor(private readonly store: TodoStore) {}

  @GET
  @Path('/')
  @ApiResponse(200, [Todo])
  list(): Todo[] {
    return this.store.list();
  }

  @GET
  @Path('/{id:\\d+}')
  @ApiResponse(404, 'No such todo')
  get(@PathParam('id') id: number): Todo {
    return this.store.get(id);
  }

  /** Each new todo as a server-sent event (`new EventSource('/todos/events')` in a browser). */
  @GET
  @Path('/events')
  @ServerSentEvents()
  events(): EventStream {
    const stream = new EventStream();
    const stop = this.store.onAdded((todo) =>
      stream.send(new ServerSentEvent({ id: todo.id, event: 'created', data: todo })),
    );
    stream.signal.addEventListener('abort', stop);
    return stream;
  }

  @POST
  @Path('/')
  @ApiResponse(201, { type: Todo, headers: { Location: 'The new todo' } })
  create(@Valid body: NewTodo): Response {
    const todo = this.store.add(body);
    return Response.status(201).header('Location', `/todos/${todo.id}`).entity(todo).build();
  }

  /** The body is validated by a Zod schema (src/todo-change.ts) rather than a class. */
  @PATCH
  @Path('/{id:\\d+}')
  @ApiResponse(404, 'No such todo')
  update(@PathParam('id') id: number, @Valid(TodoChange) change: z.output<typeof TodoChange>): Todo {
    return this.store.update(id, change);
  }
}
