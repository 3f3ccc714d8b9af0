import * as net from 'node:net';

/** Sends bytes as they are on a fresh socket and collects what comes back until the server closes or `timeoutMs` passes. */
export function rawRequest(port: number, payload: string | Buffer | Array<string | Buffer>, timeoutMs = 1000, gapMs = 0): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const parts = Array.isArray(payload) ? payload : [payload];
    socket.on('connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) break;
        socket.write(p);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    const timer = setTimeout(finish, timeoutMs);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
    }
  });
}
