/**
 * Loads hyper-express or ultimate-express from benchmarks/.peers. npm cannot install them in the workspace:
 * they depend on uWebSockets.js through a GitHub URL, which npm resolves even under the root `overrides`
 * entry, and GitHub is not reachable here. setup/peers.ts installs them from the npm registry instead,
 * and they run on the root's uWebSockets.js build.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { PEERS_DIR } from '../../paths';
import { peerDirectory, type PeerName } from '../../setup/peers';

export class PeerNotInstalledError extends Error {
  constructor(name: string, cause: unknown) {
    super(`${name} is not installed in ${PEERS_DIR}: run \`npm run bench -- --setup\` (${(cause as Error).message})`);
  }
}

export function requirePeer<T>(name: PeerName): T {
  const requireFromPeers = createRequire(path.join(peerDirectory(name), 'package.json'));
  let resolved: string;
  try {
    resolved = requireFromPeers.resolve(name);
  } catch (error) {
    throw new PeerNotInstalledError(name, error);
  }
  if (!resolved.startsWith(PEERS_DIR))
    throw new PeerNotInstalledError(name, new Error(`resolved outside .peers: ${resolved}`));
  return requireFromPeers(name) as T;
}
