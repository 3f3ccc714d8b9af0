import type { RestPlugin, RouteScope } from '../../plugin';
import { bindOpenStreams, EventStreamWriter, OpenStreams } from './event-stream-writer';
import { requestSignal } from './request-signal';

const EVENT_STREAM_TYPE = 'text/event-stream';

function readsSignal(route: RouteScope): boolean {
  return route.definition.parameters.some((p) => p.source === 'context' && p.type === AbortSignal);
}

function producesEvents(route: RouteScope): boolean {
  return route.definition.produces.some((type) => type.toLowerCase().startsWith(EVENT_STREAM_TYPE));
}

/**
 * Server-sent events and disconnect signals, built in: routes producing `text/event-stream` get the event
 * stream writer (`@ServerSentEvents()` or `@Produces('text/event-stream')`), and are ended when the server shuts
 * down (clients reconnect elsewhere); `@Context() signal: AbortSignal` gives any route a signal that aborts when
 * the client leaves. Other routes get no hook.
 */
export const serverSentEventsPlugin: RestPlugin = {
  name: 'server-sent-events',
  setup(app) {
    const streams = new OpenStreams();
    if (app.settings.writerForMediaType(EVENT_STREAM_TYPE) === undefined)
      app.writer(EVENT_STREAM_TYPE, EventStreamWriter);
    app.onShutdown(() => streams.endAll());
    app.route((route) => {
      if (route.kind !== 'http') return undefined;
      const signal = readsSignal(route);
      const events = producesEvents(route);
      if (!signal && !events) return undefined;
      return {
        onRequest(ctx) {
          if (signal) ctx.put(AbortSignal, requestSignal(ctx.request, ctx.response));
          if (events) bindOpenStreams(ctx.request, streams);
        },
      };
    });
  },
};
