/** Runs one of an app's command-line tools (keys, access) as its user would, and returns what it printed. */
import { execFile } from 'node:child_process';

export interface CliOutput {
  stdout: string;
  stderr: string;
}

export function runNodeCli(
  script: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 4 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `${script} ${args.join(' ')} failed (${error.code ?? error.signal ?? error.message}): ${(stderr || stdout).trim().slice(0, 600)}`,
            ),
          );
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}

/** The value after "<label>" on a line of the output (e.g. "API key: pk_..."), or an error naming what was printed. */
export function valueAfter(output: string, label: string): string {
  for (const line of output.split('\n')) {
    const index = line.indexOf(label);
    if (index >= 0) return line.slice(index + label.length).trim();
  }
  throw new Error(`expected a line with "${label}" in:\n${output.slice(0, 600)}`);
}
