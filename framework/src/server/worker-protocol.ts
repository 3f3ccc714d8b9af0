/** Key of the serve settings in a worker's `workerData`. */
export const SERVE_WORKER = 'rest.uws:serve-worker';

/** What the main thread tells a worker it starts. */
export interface WorkerAssignment {
  index: number;
  port: number;
  host: string;
}

/** Messages between the main thread and its workers. */
export type WorkerMessage =
  | { type: 'listening'; port: number; threadId: number }
  | { type: 'failed'; message: string; stack?: string }
  | { type: 'stopped'; inFlight: number; unfinished: number; webSockets: number };

export type MainMessage = { type: 'shutdown'; timeoutMs: number };
