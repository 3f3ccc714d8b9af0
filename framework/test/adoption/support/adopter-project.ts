import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { thisMachine, uwsBuildFor } from '../../../src/adapter/uws-builds';

/** framework/ (the tests run from framework/dist/test/adoption). */
export const frameworkDir = path.resolve(__dirname, '..', '..', '..', '..');
export const repositoryDir = path.resolve(frameworkDir, '..');
/** The adopter fixtures, read from the sources (they are not part of the framework's build). */
export const fixturesDir = path.join(frameworkDir, 'test', 'adoption', 'fixtures');

/** The uWebSockets.js build for the Node and platform running the tests (v20.30 on Node 20, v20.57 on 22+). */
export const UWS_SPEC = uwsBuildFor(thisMachine()).spec!;
export const UWS_DEPENDENCY = `uWebSockets.js@${UWS_SPEC}`;
const nodeMajor = Number(process.versions.node.split('.')[0]);
export const TYPESCRIPT_DEPENDENCIES = [
  'typescript@~5.9.3',
  nodeMajor > 20 ? `@types/node@^${nodeMajor}.0.0` : '@types/node@^20.19.0',
];

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for messages and assertions. */
  output: string;
}

/**
 * The environment of a child command: npm's own variables from an enclosing `npm test` (workspace,
 * prefix...) would leak into the nested npm and point it back at this repository, so they go.
 */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && !/^npm_config_(cache|registry|userconfig)$/i.test(key)) continue;
    if (key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end; never rejects (the result says how it ended). */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: cleanEnvironment(env), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as NodeJS.ErrnoException & { code?: unknown }).code === 'number'
            ? (error as unknown as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Runs a command that must succeed; a failure throws with its output. */
export async function runOk(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CommandResult> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.code}:\n${result.output}`);
  return result;
}

/** npm install from the local cache where it can (the registry is still asked for what is missing). */
export function npmInstall(
  cwd: string,
  specs: readonly string[],
  flags: readonly string[] = [],
): Promise<CommandResult> {
  return runOk(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...flags, ...specs],
    cwd,
  );
}

/** A fresh folder outside the repository. */
export function temporaryFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `rest-uws-${prefix}-`));
}

export interface PackedFramework {
  tarball: string;
  files: string[];
}

/** `npm pack -w <workspace>` into `destination` (its prepack builds it): the tarball and the files it holds. */
export async function packWorkspace(
  workspace: 'rest.uws' | 'create-rest-uws',
  destination: string,
): Promise<PackedFramework> {
  const result = await runOk(
    'npm',
    ['pack', '-w', workspace, '--pack-destination', destination, '--json', '--loglevel=error'],
    repositoryDir,
  );
  const [entry] = JSON.parse(result.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: path.join(destination, entry!.filename), files: entry!.files.map((f) => f.path) };
}

/** `npm pack -w rest.uws` into `destination`. */
export const packFramework = (destination: string) => packWorkspace('rest.uws', destination);

/** Writes a file, creating its folders. */
export function writeFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** Copies a fixture (`name.ts.txt`) to `file`. */
export function copyFixture(name: string, file: string): void {
  writeFile(file, fs.readFileSync(path.join(fixturesDir, `${name}.ts.txt`), 'utf8'));
}

export interface RunningApp {
  url: string;
  /** The line the app printed when it started listening. */
  banner: string;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts a Node program that prints `listening on http://127.0.0.1:<port>...` and resolves once it
 * did; rejects with the program's output when it exits first or stays silent for `timeoutMs`.
 */
export function startApp(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 20_000,
): Promise<RunningApp> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: cleanEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not start listening within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)[^\n]*/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          banner: match[0],
          output: () => output,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
            const code = await exited;
            clearTimeout(killer);
            return code;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before listening:\n${output}`));
    });
  });
}
