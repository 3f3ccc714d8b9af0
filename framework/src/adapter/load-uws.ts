import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as Uws from 'uWebSockets.js';
import { thisMachine, uwsAdvice } from './uws-builds';
import { errors } from '../errors/factories';

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
    throw errors.RU_ERR_UWS_LOAD(loadFailure(err as NodeJS.ErrnoException), { cause: err });
  }
  if (!isNative(uws)) {
    const allowed =
      options.allowFallback === true ||
      process.env[ALLOW_FALLBACK_ENV] === '1' ||
      process.env[ALLOW_FALLBACK_ENV] === 'true';
    if (!allowed) throw errors.RU_ERR_UWS_LOAD(fallbackExplanation());
    process.emitWarning(
      "rest.uws: running on uWebSockets.js's JavaScript fallback because it was explicitly allowed; expect much lower throughput.",
    );
  }
  checked = uws;
  return uws;
}

/** The native module exports native functions; the fallback's are plain JavaScript. */
function isNative(uws: UwsModule): boolean {
  return typeof uws.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
}

/** The package is missing, or present with no binary that loads here (builds without a fallback throw). */
function loadFailure(err: NodeJS.ErrnoException): string {
  const missing = err.code === 'MODULE_NOT_FOUND' && /'uWebSockets\.js'/.test(err.message);
  const firstLine = err.message.split('\n').find((line) => line.trim() !== '') ?? err.message;
  const detail = err.message
    .split('\n')
    .filter((line) => /GLIBC|cannot open|not a valid|was compiled against|Cannot find module '.*\.node'/.test(line))[0];
  if (missing)
    return `rest.uws: the package uWebSockets.js is not installed (${firstLine}). To fix it, ${uwsAdvice()} (see the rest.uws README, "Which uWebSockets.js").`;
  return [
    `rest.uws: uWebSockets.js (${installedBuild()}) is installed but cannot load on this machine: ${(detail ?? firstLine).trim()}`,
    `  This machine: ${describeMachine()}.`,
    `  Fix: ${uwsAdvice()}.`,
  ].join('\n');
}

/** Why the native binary did not load, with what to do about it. */
function fallbackExplanation(): string {
  const abi = process.versions.modules;
  const binary = `uws_${process.platform}_${process.arch}_${abi}.node`;
  let reason = process.env.UWS_USE_FALLBACK
    ? 'the environment variable UWS_USE_FALLBACK asks uWebSockets.js for its fallback'
    : 'unknown';
  if (!process.env.UWS_USE_FALLBACK) {
    try {
      const dir = path.dirname(localRequire.resolve('uWebSockets.js'));
      localRequire(path.join(dir, '..', 'binaries', binary));
      reason = 'the binary loads when required directly; another copy of uWebSockets.js may be in use';
    } catch (err) {
      reason = (err as Error).message.split('\n')[0]!;
    }
  }
  return [
    `rest.uws: uWebSockets.js (${installedBuild()}) could not load its native binary ${binary} and fell back to a slow JavaScript server; rest.uws refuses that fallback.`,
    `  Reason: ${reason}`,
    `  This machine: ${describeMachine()}.`,
    `  Fix: ${uwsAdvice()}.`,
    `  To run on the fallback anyway (tests, unsupported platforms), set ${ALLOW_FALLBACK_ENV}=1.`,
  ].join('\n');
}

function describeMachine(): string {
  const machine = thisMachine();
  const libc =
    machine.platform !== 'linux'
      ? ''
      : machine.glibc !== undefined
        ? `, glibc ${machine.glibc}`
        : ', not glibc (musl?)';
  return `Node ${process.version} (ABI ${process.versions.modules}), ${machine.platform}-${machine.arch}${libc}`;
}

/** "name version" of the package installed as uWebSockets.js (its package.json may not be exported). */
function installedBuild(): string {
  try {
    let dir = path.dirname(localRequire.resolve('uWebSockets.js'));
    for (let depth = 0; depth < 3; depth++, dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (fs.existsSync(manifest)) {
        const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
        if (name !== undefined) return `${name} ${version ?? ''}`.trim();
      }
    }
  } catch {
    // not resolvable: the caller's message says so
  }
  return 'unknown build';
}
