import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as Uws from 'uWebSockets.js';

export type UwsModule = typeof Uws;

const localRequire = createRequire(__filename);
let checked: UwsModule | undefined;

/** Set REST_UWS_ALLOW_FALLBACK=1 (or pass allowFallback) to accept uWebSockets.js's slow JavaScript fallback. */
export const ALLOW_FALLBACK_ENV = 'REST_UWS_ALLOW_FALLBACK';

/**
 * Loads uWebSockets.js and refuses its pure-JavaScript fallback, which it switches to silently when
 * its native binary does not load: a server many times slower than the one you chose.
 */
export function loadUws(options: { allowFallback?: boolean } = {}): UwsModule {
  if (checked) return checked;
  let uws: UwsModule;
  try {
    uws = localRequire('uWebSockets.js');
  } catch (err) {
    throw new Error(
      `rest.uws: the package uWebSockets.js is not installed (${(err as Error).message}). Add it to your dependencies; on Node 20 use ` +
        `"uWebSockets.js": "npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0" (see the rest.uws README, "Installing uWebSockets.js").`,
    );
  }
  if (!isNative(uws)) {
    const allowed = options.allowFallback === true || process.env[ALLOW_FALLBACK_ENV] === '1' || process.env[ALLOW_FALLBACK_ENV] === 'true';
    if (!allowed) throw new Error(fallbackExplanation());
    process.emitWarning('rest.uws: running on uWebSockets.js\'s JavaScript fallback because it was explicitly allowed; expect much lower throughput.');
  }
  checked = uws;
  return uws;
}

/** The native module exports native functions; the fallback's are plain JavaScript. */
export function isNative(uws: UwsModule): boolean {
  return typeof uws.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
}

/** Why the native binary did not load, with what to do about it. */
export function fallbackExplanation(): string {
  const abi = process.versions.modules;
  const binary = `uws_${process.platform}_${process.arch}_${abi}.node`;
  let reason = process.env.UWS_USE_FALLBACK ? 'the environment variable UWS_USE_FALLBACK asks uWebSockets.js for its fallback' : 'unknown';
  if (!process.env.UWS_USE_FALLBACK) {
    try {
      const dir = path.dirname(localRequire.resolve('uWebSockets.js'));
      localRequire(path.join(dir, '..', 'binaries', binary));
      reason = 'the binary loads when required directly; another copy of uWebSockets.js may be in use';
    } catch (err) {
      reason = (err as Error).message.split('\n')[0]!;
    }
  }
  const glibc = (process.report?.getReport() as any)?.header?.glibcVersionRuntime ?? 'unknown';
  return [
    `rest.uws: uWebSockets.js could not load its native binary ${binary} and fell back to a slow JavaScript server; rest.uws refuses that fallback.`,
    `  Reason: ${reason}`,
    `  This machine: Node ${process.version} (ABI ${abi}), ${process.platform}-${process.arch}, glibc ${glibc}.`,
    `  Fix: install a uWebSockets.js build for this Node version and platform. On Node 20 with glibc older than 2.38 (Debian 12) use`,
    `  "uWebSockets.js": "npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0"; other builds need glibc 2.38 or newer.`,
    `  To run on the fallback anyway (tests, unsupported platforms), set ${ALLOW_FALLBACK_ENV}=1.`,
  ].join('\n');
}
