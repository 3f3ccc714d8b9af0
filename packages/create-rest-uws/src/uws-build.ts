/**
 * The uWebSockets.js build a new project depends on, for the Node and platform running this command. The
 * same table as rest.uws's adapter/uws-builds.ts, which names the build in its load errors (this package
 * installs without rest.uws); framework/test/adoption/create-rest-uws.test.ts keeps the two in agreement.
 */
export const UWS_NODE20_PACKAGE = 'npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0';
export const UWS_CURRENT_PACKAGE = 'npm:@btc-vision/uwebsockets.js@20.57.0';

const NODE_MAJORS = [20, 22, 24, 25];
const CURRENT_PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

export interface Machine {
  nodeVersion: string;
  platform: string;
  arch: string;
  /** glibc's version on Linux; undefined on musl and off Linux. */
  glibc: string | undefined;
}

export interface UwsPick {
  /** The dependency to write. */
  spec: string;
  /** Set when this build will not load here: why, and what to do. */
  warning?: string;
}

export function thisMachine(): Machine {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return {
    nodeVersion: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    glibc: header?.glibcVersionRuntime,
  };
}

/** v20.30 on Node 20 (any glibc from 2.27), v20.57 from Node 22 on (glibc 2.38+); a warning where neither loads. */
export function pickUws(machine: Machine): UwsPick {
  const major = Number(machine.nodeVersion.split('.')[0]);
  const where = `${machine.platform}-${machine.arch}`;
  if (!NODE_MAJORS.includes(major)) {
    return {
      spec: UWS_CURRENT_PACKAGE,
      warning: `no published uWebSockets.js build has binaries for Node ${major}: use Node 20, 22 or 24.`,
    };
  }
  if (machine.platform === 'linux' && machine.glibc === undefined) {
    const spec = major === 20 ? UWS_NODE20_PACKAGE : UWS_CURRENT_PACKAGE;
    return {
      spec,
      warning:
        'uWebSockets.js has no build for musl libc (Alpine Linux): use a glibc-based system or image, e.g. Debian 13 (node:24-trixie-slim).',
    };
  }
  if (major === 20) return { spec: UWS_NODE20_PACKAGE };
  if (!CURRENT_PLATFORMS.includes(where)) {
    return {
      spec: UWS_CURRENT_PACKAGE,
      warning: `no published uWebSockets.js build for Node ${major} has binaries for ${where}.`,
    };
  }
  if (machine.platform === 'linux' && olderThan(machine.glibc!, [2, 38])) {
    return {
      spec: UWS_CURRENT_PACKAGE,
      warning:
        `the uWebSockets.js builds for Node ${major} need glibc 2.38 or newer and this machine has ${machine.glibc}: ` +
        `move to a system with glibc 2.38+ (Debian 13, Ubuntu 24.04), or use Node 20 and change "uWebSockets.js" in package.json to "${UWS_NODE20_PACKAGE}".`,
    };
  }
  return { spec: UWS_CURRENT_PACKAGE };
}

function olderThan(version: string, minimum: readonly number[]): boolean {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < minimum.length; i++) {
    if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) < minimum[i]!;
  }
  return false;
}
