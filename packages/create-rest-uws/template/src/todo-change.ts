import { z } from 'zod';

/**
 * The body of PATCH /todos/{id}, a Zod schema where POST's NewTodo is a class: `@Valid(TodoChange)` takes either
 * kind (any Standard Schema). The method receives the schema's output (the title trimmed); `.meta({ id })` names
 * the schema in the OpenAPI document and in the typed client.
 */
export const TodoChange = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    done: z.boolean().optional(),
  })
  .meta({ id: 'TodoChange' });
