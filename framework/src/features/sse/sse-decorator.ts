import { Produces, ResponseWriter, SetMetadata } from '../../plugin';
import { EventStreamWriter, type EventStreamSettings } from './event-stream-writer';

/** Metadata key of `@ServerSentEvents` (its settings). */
const SERVER_SENT_EVENTS = Symbol('rest.uws:server-sent-events');

/**
 * The route answers with an event stream (`text/event-stream`): it returns an async iterable (an async generator),
 * an iterable, or an `EventStream` (push API), whose values are sent as events: `ServerSentEvent`s, strings as
 * data, anything else as JSON data. Status and headers set before returning (or with `Response.status(...)
 * .entity(stream)`) go out at once, before the first event.
 *
 * ```ts
 * @GET @Path('/ticks') @ServerSentEvents({ heartbeatSeconds: 10 })
 * async *ticks(@HeaderParam('Last-Event-ID') @Optional lastId: string | undefined, @Context() signal: AbortSignal) {
 *   for (let n = Number(lastId ?? 0) + 1; !signal.aborted; n++) {
 *     yield new ServerSentEvent({ id: n, data: { n } });
 *     await setTimeout(1000, undefined, { signal }).catch(() => undefined);
 *   }
 * }
 * ```
 */
export function ServerSentEvents(settings: EventStreamSettings = {}): MethodDecorator {
  const writer = EventStreamWriter.with(settings);
  return (target, key, descriptor) => {
    Produces('text/event-stream')(target, key, descriptor);
    ResponseWriter(writer)(target, key, descriptor);
    SetMetadata(SERVER_SENT_EVENTS, settings)(target, key, descriptor);
  };
}
