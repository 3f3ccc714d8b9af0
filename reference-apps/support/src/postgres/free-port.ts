import net from 'node:net';

/** Asks the kernel for a free TCP port on 127.0.0.1 (listen on 0, read it back, close). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('Could not read back a free port'))));
    });
  });
}
