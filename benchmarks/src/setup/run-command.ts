/** Runs a set-up command, showing its output, and fails with the command in the message. */
import { spawnSync } from 'node:child_process';

export function runCommand(command: string, args: string[], options: { cwd?: string; quiet?: boolean } = {}): string {
  const result = spawnSync(command, args, { cwd: options.cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr.trim() || result.stdout.trim()}`,
    );
  }
  if (!options.quiet && result.stderr.trim()) process.stderr.write(result.stderr);
  return result.stdout;
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
