import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';

/** A stored todo, as clients see it: a class, so that the OpenAPI document (and the typed client) knows its fields. */
export class Todo {
  @IsInt()
  id!: number;

  @IsString()
  title!: string;

  @IsBoolean()
  done!: boolean;
}

/** The body of POST /todos; @Valid checks it before the method runs. */
export class NewTodo {
  @IsString()
  @Length(1, 200)
  title!: string;

  @IsOptional()
  @IsBoolean()
  done?: boolean;
}

/** Thrown when a todo does not exist; TodoNotFoundHandler turns it into a 404. */
export class TodoNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`No todo ${id}`);
  }
}

/** The todos, in memory: swap it for a database (the reference apps use Kysely). */
export class TodoStore {
  private readonly todos = new Map<number, Todo>();
  private readonly listeners = new Set<(todo: Todo) => void>();
  private nextId = 1;

  list(): Todo[] {
    return [...this.todos.values()];
  }

  get(id: number): Todo {
    const todo = this.todos.get(id);
    if (!todo) throw new TodoNotFoundError(id);
    return todo;
  }

  add(input: NewTodo): Todo {
    const todo = { id: this.nextId++, title: input.title, done: input.done ?? false };
    this.todos.set(todo.id, todo);
    for (const listener of this.listeners) listener(todo);
    return todo;
  }

  /** Changes the fields given, keeps the others. */
  update(id: number, change: { title?: string; done?: boolean }): Todo {
    const todo = this.get(id);
    const changed = { id, title: change.title ?? todo.title, done: change.done ?? todo.done };
    this.todos.set(id, changed);
    return changed;
  }

  /** Calls `listener` with every todo added from now on; returns what stops it. */
  onAdded(listener: (todo: Todo) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
