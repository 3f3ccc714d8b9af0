import { eventsPlugin } from '../features/events';
import { injectionPlugin } from '../features/injection';
import { requestLoggingPlugin } from '../features/logging';
import { securityPlugin } from '../features/security';
import { serverSentEventsPlugin } from '../features/sse';
import { staticFilesPlugin } from '../features/static';
import { uploadsPlugin } from '../features/uploads';
import { validationPlugin } from '../features/validation';
import { webSocketPlugin } from '../features/websocket';
import type { RestPlugin } from '../pipeline/plugin';

/**
 * The features every app has, as plugins, in the order their route hooks run: injection (first: it fills the
 * `@Context` fields of the components the others bind), uploads (which routes
 * read bodies), security (before the arguments), validation (after them), events (after the answer),
 * static files, server-sent events, WebSocket endpoints, request logging. Their decorators may appear on any route, so
 * every app uses them; each costs nothing on a route that uses none of its decorators.
 */
export const BUILT_IN_PLUGINS: readonly RestPlugin[] = [
  injectionPlugin,
  uploadsPlugin,
  securityPlugin,
  validationPlugin,
  eventsPlugin,
  staticFilesPlugin,
  serverSentEventsPlugin,
  webSocketPlugin,
  requestLoggingPlugin,
];
