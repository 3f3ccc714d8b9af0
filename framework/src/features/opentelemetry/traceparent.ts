import type * as Api from '@opentelemetry/api';

/** `version-traceid-parentid-flags`, version 00 (https://www.w3.org/TR/trace-context/#traceparent-header). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The caller's span context from W3C `traceparent` and `tracestate`, used when no propagator is registered (the
 * Node SDK registers one that reads these same headers). A header that is malformed, of version ff, or with an
 * all-zero id is ignored (the span starts a new trace), as the specification says.
 */
export function extractTraceparent(api: typeof Api, traceparent: string, tracestate: string): Api.Context {
  if (traceparent === '') return api.ROOT_CONTEXT;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return api.ROOT_CONTEXT;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version 00 has exactly four fields; a later version may add some.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return api.ROOT_CONTEXT;
  const spanContext: Api.SpanContext = {
    traceId: traceId!,
    spanId: spanId!,
    traceFlags: Number.parseInt(flags!, 16) & 1,
    isRemote: true,
  };
  if (!api.isSpanContextValid(spanContext)) return api.ROOT_CONTEXT;
  if (tracestate !== '') spanContext.traceState = api.createTraceState(tracestate);
  return api.trace.setSpanContext(api.ROOT_CONTEXT, spanContext);
}
