import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder in the system's temporary folder, removed when the test process exits. */
export function tempFolder(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rest-uws-${label}-`));
  made.push(dir);
  return dir;
}

/** Names in a folder (empty when it does not exist). */
export function filesIn(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** Waits until `check` holds (cleanup runs just after the response), failing after `ms`. */
export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** A multipart/form-data body built by hand (fetch's FormData cannot send every shape tests need). */
export function multipartBody(
  boundary: string,
  parts: Array<{ name: string; fileName?: string; type?: string; content: string | Buffer }>,
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.fileName !== undefined) head += `; filename="${p.fileName}"`;
    head += '\r\n';
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(
      Buffer.from(head + '\r\n'),
      Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Status code of a raw HTTP answer. */
export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
}
