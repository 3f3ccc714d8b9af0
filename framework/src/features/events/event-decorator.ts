import { errors, methodMetadata, type Constructor, type Provided } from '../../plugin';
import type { RestEvent } from './contracts';

/** Metadata key of a method's events. */
export const EVENTS = Symbol('rest.uws:events');

/** When an event fires; without options, on any 2xx response. */
export interface EventOptions {
  /** Fire on this status code only (the response of a handled error counts too). */
  response?: number;
  /** Fire when the route failed with this error class (or a subclass); the error is the entity. */
  exception?: Constructor<Error> | Function;
}

/** One `@Event` as recorded. */
export interface EventBinding {
  /** The event class (made through the injection provider) or instance. */
  event: Provided<RestEvent<any>>;
  /** The status it fires on (see `EventOptions.response`). */
  response?: number;
  /** The error class it fires on (see `EventOptions.exception`). */
  exception?: Function;
}

/**
 * Runs an event after the route's response is produced (the spec's `@Events({@Event(...)})`; repeat
 * the decorator for several). `@Event(Handler)` fires on 2xx, `@Event(Handler, { response: 404 })`
 * on that status, `@Event(Handler, { exception: ConflictError })` when that error was thrown.
 */
export function Event(event: Provided<RestEvent<any>>, options: EventOptions = {}): MethodDecorator {
  if (event === undefined || event === null)
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @Event takes a RestEvent class or instance');
  const { response, exception } = options;
  if (response !== undefined && !(Number.isInteger(response) && response >= 100 && response <= 599)) {
    throw errors.RU_ERR_DECORATOR_ARGUMENT(`rest.uws: @Event response must be an HTTP status code, got ${response}`);
  }
  if (exception !== undefined && typeof exception !== 'function')
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @Event exception must be an error class');
  return (target, key) => {
    const meta = methodMetadata(target, key);
    const list = (meta.extensions.get(EVENTS) as EventBinding[] | undefined) ?? [];
    // Decorators apply bottom-up: prepend so the list reads in source order.
    meta.extensions.set(EVENTS, [{ event, response, exception }, ...list]);
  };
}
