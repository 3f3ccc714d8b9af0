/**
 * The load generator and the pinning tool: Debian's `wrk` and `taskset` (util-linux).
 * As root the harness installs what is missing with apt-get; otherwise it stops and prints the command.
 */
import { commandExists, runCommand } from './run-command';

const TOOLS = [
  { command: 'wrk', debianPackage: 'wrk' },
  { command: 'taskset', debianPackage: 'util-linux' },
];

export function ensureSystemTools(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  const missing = TOOLS.filter((tool) => !commandExists(tool.command));
  if (missing.length === 0) return;
  const packages = missing.map((tool) => tool.debianPackage);
  const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing ${missing.map((tool) => tool.command).join(', ')}; as root, run:\n  ${command}`);
  }
  log(`setup: installing ${packages.join(' ')} with apt-get`);
  runCommand('apt-get', ['update', '-qq'], { quiet: true });
  runCommand('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { quiet: true });
  const stillMissing = missing.filter((tool) => !commandExists(tool.command));
  if (stillMissing.length > 0)
    throw new Error(`apt-get did not provide ${stillMissing.map((tool) => tool.command).join(', ')}`);
}
