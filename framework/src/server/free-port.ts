import * as net from 'node:net';

/**
 * A port free on `host` right now. Workers must share one fixed port: uWebSockets.js only shares
 * ports (SO_REUSEPORT) when given a port number, not 0.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
