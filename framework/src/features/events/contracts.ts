import type { RoutingContext } from '../../plugin';

/**
 * Runs after a route produced its response (the spec's RestEvent). `entity` is what the method
 * returned (the entity of a `Response`), or the error it threw for `exception` events.
 * Declare the entity type with `@Handles(Type)`: an event whose type does not match the entity
 * is not fired. Failures are logged and never change the response.
 *
 * ```ts
 * @Handles(Booking)
 * class NotifyPartner implements RestEvent<Booking> {
 *   async execute(booking: Booking, ctx: RoutingContext) { await webhooks.send(booking); }
 * }
 * ```
 */
export interface RestEvent<T = unknown> {
  /** Runs after the response; a rejection or throw is logged. */
  execute(entity: T, ctx: RoutingContext): void | Promise<void>;
}
