/** WebSocket endpoints: the `@WebSocket` decorator, its options, and the plugin that makes them routes. */
export { webSocketPlugin } from './websocket-plugin';
export { WebSocket, WEBSOCKET_ENDPOINT, type WebSocketEndpointMetadata } from './websocket-decorator';
export type { WebSocketOptions } from './websocket-options';
