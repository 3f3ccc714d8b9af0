import { execFile } from 'node:child_process';

/**
 * Opens a page in headless Chromium (Debian's `chromium`, installed by .ci/preflight.sh test) and returns the DOM
 * as the browser built it, after its scripts (if any) ran.
 */
export function renderedDom(url: string): Promise<string> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--virtual-time-budget=2000', '--dump-dom', url];
  return new Promise((resolve, reject) => {
    execFile('chromium', args, { timeout: 30_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`chromium failed (${error.message}); install it with: apt-get install -y chromium\n${stderr}`));
      else resolve(stdout);
    });
  });
}
