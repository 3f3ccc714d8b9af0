import { asyncApi, openApi, RestBuilder } from 'rest.uws';
import { TodoStore } from './todo.js';
import { TodoLive } from './todo-live.js';
import { TodoNotFoundHandler } from './todo-not-found-handler.js';
import { TodoResource } from './todo-resource.js';

/** The whole app, built the same way by main.ts and by the tests. */
export function buildApp(store = new TodoStore()): RestBuilder {
  return (
    new RestBuilder()
      .register(new TodoResource(store), new TodoLive(store))
      .errorHandler(TodoNotFoundHandler)
      // The documents of the HTTP routes and of the WebSocket endpoint; npm run client makes the typed client of both.
      .use(openApi({ title: 'Todos', version: '0.1.0' }))
      .use(asyncApi({ title: 'Todos', version: '0.1.0' }))
  );
}
