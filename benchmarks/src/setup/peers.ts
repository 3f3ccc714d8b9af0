/**
 * Installs hyper-express and ultimate-express beside the workspace, in benchmarks/.peers/<name>/.
 * Why apart: both depend on uWebSockets.js through a GitHub URL; npm resolves that URL even when the root
 * `overrides` entry replaces it, and GitHub is not reachable from these machines, so `npm install` fails.
 * Here each package's registry tarball is fetched with `npm pack`, its other dependencies are installed
 * with npm, and its own uWebSockets.js dependency is left out: Node finds the root's build by walking up.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PEERS_DIR } from '../paths';
import { runCommand } from './run-command';

export const PEER_PACKAGES = [
  { name: 'hyper-express', version: '6.18.0' },
  { name: 'ultimate-express', version: '2.2.1' },
] as const;

export type PeerName = (typeof PEER_PACKAGES)[number]['name'];

export function peerDirectory(name: PeerName): string {
  return path.join(PEERS_DIR, name);
}

export function isPeerInstalled(name: PeerName): boolean {
  const manifest = path.join(peerDirectory(name), 'node_modules', name, 'package.json');
  if (!fs.existsSync(manifest)) return false;
  const wanted = PEER_PACKAGES.find((peer) => peer.name === name)!.version;
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version === wanted;
}

function readTarballManifest(tarball: string): { dependencies?: Record<string, string> } {
  return JSON.parse(runCommand('tar', ['-xzf', tarball, '-O', 'package/package.json'], { quiet: true })) as {
    dependencies?: Record<string, string>;
  };
}

export function installPeers(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  for (const peer of PEER_PACKAGES) {
    if (isPeerInstalled(peer.name)) continue;
    const directory = peerDirectory(peer.name);
    log(`setup: installing ${peer.name}@${peer.version} into ${directory}`);
    fs.rmSync(directory, { recursive: true, force: true });
    fs.mkdirSync(directory, { recursive: true });
    const packed = JSON.parse(
      runCommand('npm', ['pack', `${peer.name}@${peer.version}`, '--json', '--pack-destination', directory], {
        cwd: directory,
        quiet: true,
      }),
    ) as { filename: string }[];
    const tarball = path.join(directory, packed[0].filename);
    const dependencies = Object.fromEntries(
      Object.entries(readTarballManifest(tarball).dependencies ?? {}).filter(
        ([name]) => name !== 'uWebSockets.js' && !name.startsWith('@types/'),
      ),
    );
    fs.writeFileSync(
      path.join(directory, 'package.json'),
      `${JSON.stringify({ name: `bench-peer-${peer.name}`, private: true, dependencies }, null, 2)}\n`,
    );
    runCommand(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'],
      { cwd: directory, quiet: true },
    );
    const target = path.join(directory, 'node_modules', peer.name);
    fs.mkdirSync(target, { recursive: true });
    runCommand('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], { quiet: true });
    fs.rmSync(tarball);
  }
}
