import { classMetadata, errors, marker } from '../../plugin';

/** Metadata key of classes marked `@Inject`. */
const INJECTABLE = Symbol('rest.uws:injectable');

/**
 * Marks a class whose constructor parameters the injection provider fills (the spec's `@Inject`).
 * TypeScript records constructor parameter types only for decorated classes: REST classes,
 * readers and writers usually have a decorator already; a plain provider or service needs this
 * one (or tsyringe's own `@injectable()`). Tokens for interfaces use tsyringe's `@inject(token)`.
 *
 * ```ts
 * @Inject
 * class ApiKeyAuthentication implements RestAuthenticationProvider<string> {
 *   constructor(private readonly keys: KeyRepository) {}
 * }
 * ```
 */
export const Inject = marker((target: Function) => {
  if (typeof target !== 'function')
    throw errors.RU_ERR_DECORATOR_TARGET(
      "rest.uws: @Inject goes on a class (use tsyringe's @inject(token) on constructor parameters)",
    );
  classMetadata(target).extensions.set(INJECTABLE, true);
});
