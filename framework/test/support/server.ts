import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { loadUws } from '../../src/adapter/load-uws';

export interface RunningServer {
  port: number;
  url: string;
  close(): void;
}

/** Listens on 127.0.0.1 on a free port; `close()` stops listening. */
export function listen(app: TemplatedApp): Promise<RunningServer> {
  const uws = loadUws();
  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', 0, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error('listen failed'));
      const port = uws.us_socket_local_port(socket as any);
      resolve({ port, url: `http://127.0.0.1:${port}`, close: () => uws.us_listen_socket_close(socket) });
    });
  });
}
