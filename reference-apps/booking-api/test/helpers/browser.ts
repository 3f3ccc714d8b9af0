import { execFile } from 'node:child_process';

/**
 * Opens a page in headless Chromium (Debian's `chromium`, installed by .ci/preflight.sh test) and returns the DOM
 * as the browser built it, after its scripts (if any) ran.
 */
export function renderedDom(url: string): Promise<string> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--virtual-time-budget=2000',
    '--dump-dom',
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile('chromium', args, { timeout: 30_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(`chromium failed (${error.message}); install it with: apt-get install -y chromium\n${stderr}`),
        );
      else resolve(stdout);
    });
  });
}

/**
 * Debian's Chromium driven by playwright-core, headless as root on a closed network: no sandbox, and none of
 * Chromium's own background connections, so every request a page makes is one the test sees.
 */
export function launchChromium(): Promise<import('playwright-core').Browser> {
  return import('playwright-core').then(({ chromium }) =>
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    }),
  );
}
