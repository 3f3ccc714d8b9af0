import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A served folder and, next to it, a secret that must never be served. */
export interface StaticFixture {
  /** The parent of root; holds secret.txt. */
  base: string;
  root: string;
  secret: string;
  binary: Buffer;
  cleanup(): void;
}

export const SECRET_TEXT = 'TOP-SECRET-outside-the-root';

export function makeStaticFixture(): StaticFixture {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-static-'));
  const root = path.join(base, 'public');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(root, 'noindex'));
  fs.writeFileSync(path.join(root, 'index.html'), '<h1>home</h1>');
  fs.writeFileSync(path.join(root, 'app.js'), 'console.log("app");\n');
  fs.writeFileSync(path.join(root, 'style.CSS'), 'body { color: red }');
  fs.writeFileSync(path.join(root, 'notes.unknownext'), 'plain bytes');
  fs.writeFileSync(path.join(root, 'empty.txt'), '');
  fs.writeFileSync(path.join(root, '.env'), 'PASSWORD=hunter2');
  fs.writeFileSync(path.join(root, 'sub', 'index.html'), '<h1>sub</h1>');
  fs.writeFileSync(path.join(root, 'sub', 'page.html'), '<p>page</p>');
  fs.writeFileSync(path.join(root, 'name with spaces.txt'), 'spaces');
  const binary = crypto.randomBytes(300 * 1024);
  fs.writeFileSync(path.join(root, 'data.bin'), binary);
  const secret = path.join(base, 'secret.txt');
  fs.writeFileSync(secret, SECRET_TEXT);
  fs.symlinkSync(secret, path.join(root, 'escape.txt'));
  fs.symlinkSync(base, path.join(root, 'escape-dir'));
  fs.symlinkSync(path.join(root, 'app.js'), path.join(root, 'alias.js'));
  return { base, root, secret, binary, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}
