/**
 * A counter bumped whenever a global registry changes. Compiled routes remember the value they were
 * built with and rebuild themselves when it moved, so registering a global reader after `register()`
 * still takes effect, and the request path pays one integer comparison for it.
 */
export const registryGeneration = { value: 0 };

export function registryChanged(): void {
  registryGeneration.value++;
}
