import { RestBuilder } from 'rest.uws';
import { TodoStore } from './todo';
import { TodoNotFoundHandler } from './todo-not-found-handler';
import { TodoResource } from './todo-resource';

/** The whole app, built the same way by main.ts and by the tests. */
export function buildApp(store = new TodoStore()): RestBuilder {
  return new RestBuilder().register(new TodoResource(store)).errorHandler(TodoNotFoundHandler);
}
