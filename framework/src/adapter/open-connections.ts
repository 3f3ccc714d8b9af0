import type { WebSocketConnection } from '../context/websocket-connection';

/** The open WebSockets of each app, so a shutdown can close them (1001). */
const byApp = new WeakMap<object, Set<WebSocketConnection>>();

export function trackConnection(app: object, connection: WebSocketConnection): void {
  let set = byApp.get(app);
  if (set === undefined) byApp.set(app, (set = new Set()));
  set.add(connection);
}

export function untrackConnection(app: object, connection: WebSocketConnection): void {
  byApp.get(app)?.delete(connection);
}

/** The app's open WebSocket connections. */
export function openConnections(app: object): WebSocketConnection[] {
  return [...(byApp.get(app) ?? [])];
}

/**
 * Closes every open WebSocket of the app with `code` (1001, going away, by default) and returns how
 * many were open.
 */
export function closeAllWebSockets(app: object, code = 1001, reason = 'Server shutting down'): number {
  const open = openConnections(app);
  for (const c of open) c.close(code, reason);
  return open.length;
}
