/**
 * Which republished uWebSockets.js build loads on which Node and platform: the facts behind the
 * "what to install" part of rest.uws's messages (the same table is in the README and in
 * create-rest-uws, which picks the build for a new project; a test keeps the two in agreement).
 */

/** uWebSockets.js v20.30: binaries for Node 20 (ABI 115) needing glibc 2.27 on Linux. */
export const UWS_NODE20_PACKAGE = 'npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0';
/** uWebSockets.js v20.57: binaries for Node 20, 22, 24 and 25 needing glibc 2.38 on Linux (recommended from Node 22 on). */
export const UWS_CURRENT_PACKAGE = 'npm:@btc-vision/uwebsockets.js@20.57.0';

/** Node's module ABI for each major version with a published build. */
const ABI_BY_NODE_MAJOR: Record<number, string> = { 20: '115', 22: '127', 24: '137', 25: '141' };
const CURRENT_GLIBC = [2, 38] as const;
const CURRENT_PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

export interface Machine {
  nodeVersion: string;
  platform: string;
  arch: string;
  /** The C library's version on Linux ("2.41"); undefined on musl (Alpine) and off Linux. */
  glibc: string | undefined;
}

export interface UwsChoice {
  /** The dependency to write as `"uWebSockets.js": <spec>`, when a published build loads here. */
  spec?: string;
  /** One sentence: why this build, or why none. */
  reason: string;
}

/** The running process's machine. */
export function thisMachine(): Machine {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return {
    nodeVersion: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    glibc: header?.glibcVersionRuntime,
  };
}

/** The uWebSockets.js build to install on `machine`, or why there is none. */
export function uwsBuildFor(machine: Machine): UwsChoice {
  const major = Number(machine.nodeVersion.split('.')[0]);
  const where = `${machine.platform}-${machine.arch}`;
  if (ABI_BY_NODE_MAJOR[major] === undefined) {
    return { reason: `no published uWebSockets.js build has binaries for Node ${major}: use Node 20, 22 or 24.` };
  }
  if (machine.platform === 'linux' && machine.glibc === undefined) {
    return {
      reason:
        'uWebSockets.js has no build for musl libc (Alpine Linux): use a glibc-based system or image, e.g. Debian 13 (node:24-trixie-slim).',
    };
  }
  // Node 20 keeps the build it is tested with (rest.uws's own CI), which also loads on older glibc.
  if (major === 20) {
    return {
      spec: UWS_NODE20_PACKAGE,
      reason: 'uWebSockets.js v20.30, the build for Node 20 on glibc 2.27 or newer, macOS and Windows.',
    };
  }
  if (!CURRENT_PLATFORMS.includes(where)) {
    return { reason: `no published uWebSockets.js build for Node ${major} has binaries for ${where}.` };
  }
  if (machine.platform === 'linux' && compareVersions(machine.glibc!, CURRENT_GLIBC) < 0) {
    return {
      reason:
        `the uWebSockets.js builds for Node ${major} need glibc 2.38 or newer and this machine has ${machine.glibc}: ` +
        `move to a system with glibc 2.38+ (Debian 13, Ubuntu 24.04) or stay on Node 20 with "uWebSockets.js": "${UWS_NODE20_PACKAGE}".`,
    };
  }
  return {
    spec: UWS_CURRENT_PACKAGE,
    reason: 'uWebSockets.js v20.57, the build for Node 22 to 25 on glibc 2.38 or newer, macOS and Windows.',
  };
}

/** What to do, for a message (no final period): the dependency line to add, or why no build fits. */
export function uwsAdvice(machine: Machine = thisMachine()): string {
  const choice = uwsBuildFor(machine);
  const reason = choice.reason.replace(/\.$/, '');
  return choice.spec !== undefined ? `add "uWebSockets.js": "${choice.spec}" to your dependencies (${reason})` : reason;
}

function compareVersions(version: string, minimum: readonly number[]): number {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < minimum.length; i++) {
    const difference = (parts[i] ?? 0) - minimum[i]!;
    if (difference !== 0) return difference;
  }
  return 0;
}
