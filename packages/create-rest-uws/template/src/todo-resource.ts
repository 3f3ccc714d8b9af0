import { EventStream, GET, POST, Path, PathParam, Response, ServerSentEvent, ServerSentEvents, Valid } from 'rest.uws';
import { NewTodo, TodoStore, type Todo } from './todo.js';

@Path('/todos')
export class TodoResource {
  constructor(private readonly store: TodoStore) {}

  @GET
  @Path('/')
  list(): Todo[] {
    return this.store.list();
  }

  @GET
  @Path('/{id:\\d+}')
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
  create(@Valid body: NewTodo): Response {
    const todo = this.store.add(body);
    return Response.status(201).header('Location', `/todos/${todo.id}`).entity(todo).build();
  }
}
