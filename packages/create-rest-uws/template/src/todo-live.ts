import { WebSocket, WebSocketConnection } from 'rest.uws';
import { TodoStore } from './todo.js';

/** ws://host/todos/live: every new todo as a JSON message; a text message adds a todo with that title. */
@WebSocket('/todos/live', { maxPayloadLength: 4096 })
export class TodoLive {
  constructor(private readonly store: TodoStore) {}

  open(connection: WebSocketConnection): void {
    connection.data.stop = this.store.onAdded((todo) => connection.sendJson(todo));
  }

  message(connection: WebSocketConnection, data: string | Buffer): void {
    const title = String(data).trim();
    if (title.length === 0 || title.length > 200) connection.sendJson({ error: 'A title has 1 to 200 characters' });
    else this.store.add({ title });
  }

  close(connection: WebSocketConnection): void {
    (connection.data.stop as () => void)();
  }
}
