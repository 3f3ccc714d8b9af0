/** Server-sent events as a built-in plugin: event stream routes, a push API, disconnect signals. */
export { serverSentEventsPlugin } from './sse-plugin';
export { ServerSentEvents } from './sse-decorator';
export { ServerSentEvent, type ServerSentEventFields } from './server-sent-event';
export { EventStream, type EventStreamOptions } from './event-stream';
export { EventStreamWriter, type EventStreamSettings, type EventSource } from './event-stream-writer';
