import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (.ci/preflight.sh installs it for the tests). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as root on a closed network: no sandbox, and none of Chromium's own background connections
 * (updates, sync, field trials), so every request a page makes is one the test sees.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
