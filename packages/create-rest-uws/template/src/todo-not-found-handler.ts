import { Handles, type ExceptionHandler, type HttpServerRequest, type HttpServerResponse } from 'rest.uws';
import { TodoNotFoundError } from './todo.js';

/** Answers TodoNotFoundError with 404 and a JSON body saying which todo. */
@Handles(TodoNotFoundError)
export class TodoNotFoundHandler implements ExceptionHandler<TodoNotFoundError> {
  write(error: TodoNotFoundError, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(404).putHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 404, message: error.message }));
  }
}
