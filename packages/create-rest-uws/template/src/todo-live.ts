import { IsString } from 'class-validator';
import { ApiMessages, WebSocket, WebSocketConnection } from 'rest.uws';
import { NewTodo, Todo, TodoStore } from './todo.js';

/** What the socket answers a message it cannot take (it stays open). */
export class TodoRefused {
  @IsString()
  error!: string;
}

/**
 * ws://host/todos/live: every new todo as a JSON message; a NewTodo sent as JSON adds a todo. @ApiMessages declares
 * both for the AsyncAPI document (/asyncapi.json) and the typed client's `send` and `next`.
 */
@WebSocket('/todos/live', { maxPayloadLength: 4096 })
@ApiMessages({ receive: { NewTodo }, send: { Todo, TodoRefused } })
export class TodoLive {
  constructor(private readonly store: TodoStore) {}

  open(connection: WebSocketConnection): void {
    connection.data.stop = this.store.onAdded((todo) => connection.sendJson(todo));
  }

  message(connection: WebSocketConnection, data: string | Buffer): void {
    const title = titleOf(data);
    if (title === undefined)
      connection.sendJson({ error: 'A NewTodo has a title of 1 to 200 characters' } satisfies TodoRefused);
    else this.store.add({ title });
  }

  close(connection: WebSocketConnection): void {
    (connection.data.stop as () => void)();
  }
}

/** The title of a NewTodo message (NewTodo's rules: a string of 1 to 200 characters), else undefined. */
function titleOf(data: string | Buffer): string | undefined {
  try {
    const { title } = JSON.parse(String(data)) as { title?: unknown };
    return typeof title === 'string' && title.length >= 1 && title.length <= 200 ? title : undefined;
  } catch {
    return undefined; // not JSON, or null
  }
}
