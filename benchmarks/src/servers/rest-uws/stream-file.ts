/** Streams a file through rest.uws's HttpServerResponse with tryEnd/onWritable backpressure; resolves when done or aborted. */
import * as fs from 'node:fs';
import type { HttpServerResponse } from 'rest.uws';

export function streamFile(response: HttpServerResponse, filePath: string, totalSize: number): Promise<void> {
  return new Promise((resolve) => {
    const stream = fs.createReadStream(filePath, { highWaterMark: 64 * 1024 });
    const finish = () => {
      stream.destroy();
      resolve();
    };
    response.onAborted(finish);
    response.putHeader('Content-Type', 'application/octet-stream');
    stream.on('error', () => {
      response.close();
      finish();
    });
    stream.on('data', (data) => {
      const chunk = data as Buffer;
      const lastOffset = response.getWriteOffset();
      const [ok, done] = response.tryEnd(chunk, totalSize);
      if (done) return finish();
      if (ok) return;
      stream.pause();
      response.onWritable((offset) => {
        const [retryOk, retryDone] = response.tryEnd(chunk.subarray(offset - lastOffset), totalSize);
        if (retryDone) finish();
        else if (retryOk) stream.resume();
        return retryOk;
      });
    });
  });
}
