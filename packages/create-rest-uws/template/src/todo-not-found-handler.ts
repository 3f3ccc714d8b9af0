import { IsInt, IsString } from 'class-validator';
import { Handles, type ExceptionHandler, type HttpServerRequest, type HttpServerResponse } from 'rest.uws';
import { TodoNotFoundError } from './todo.js';

/** The body of the 404 below, described for the OpenAPI document (and the typed client's type of a 404). */
export class TodoNotFound {
  @IsInt()
  status!: number;

  @IsString()
  message!: string;
}

/** Answers TodoNotFoundError with 404 and a JSON body saying which todo. */
@Handles(TodoNotFoundError)
export class TodoNotFoundHandler implements ExceptionHandler<TodoNotFoundError> {
  readonly errorBody = { type: TodoNotFound };

  write(error: TodoNotFoundError, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(404).putHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 404, message: error.message } satisfies TodoNotFound));
  }
}
