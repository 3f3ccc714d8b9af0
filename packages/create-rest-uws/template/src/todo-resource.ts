import { GET, POST, Path, PathParam, Response, Valid } from 'rest.uws';
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

  @POST
  @Path('/')
  create(@Valid body: NewTodo): Response {
    const todo = this.store.add(body);
    return Response.status(201).header('Location', `/todos/${todo.id}`).entity(todo).build();
  }
}
