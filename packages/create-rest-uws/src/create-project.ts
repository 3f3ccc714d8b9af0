import * as fs from 'node:fs';
import * as path from 'node:path';
import { pickUws, type Machine } from './uws-build';

/** The template: the files every new project gets (package.json is written from the options). */
export const templateDir = path.resolve(__dirname, '..', '..', 'template');

export interface ProjectOptions {
  /** The folder to create (must not exist, or be empty). */
  folder: string;
  /** ES modules ("type": "module") instead of CommonJS. */
  esm: boolean;
  /** The rest.uws dependency: a version range, or a tarball path (made a file: spec). */
  restUws: string;
  /** The machine the uWebSockets.js build is picked for. */
  machine: Machine;
}

export interface CreatedProject {
  folder: string;
  name: string;
  files: string[];
  uws: string;
  /** Why the picked uWebSockets.js build will not load on this machine, when it will not. */
  warning?: string;
}

/**
 * Template files written under another name: npm leaves .gitignore files out of packages, and a biome.json inside
 * this repository would be a second root configuration of the repository's own Biome.
 */
const RENAMED: Record<string, string> = { gitignore: '.gitignore', 'biome.template.json': 'biome.json' };

/** Thrown for what the user can fix (the folder is taken, the name is unusable): printed without a stack. */
export class UsageError extends Error {}

/** Writes the project; writes nothing when the folder is taken. */
export function createProject(options: ProjectOptions): CreatedProject {
  const folder = path.resolve(options.folder);
  if (fs.existsSync(folder) && (!fs.statSync(folder).isDirectory() || fs.readdirSync(folder).length > 0)) {
    throw new UsageError(`${options.folder} already exists and is not an empty folder: choose another name.`);
  }
  const name = packageName(path.basename(folder));
  const uws = pickUws(options.machine);
  const files: string[] = [];
  const write = (relative: string, content: string | Buffer) => {
    const target = path.join(folder, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    files.push(relative.split(path.sep).join('/'));
  };
  for (const relative of listFiles(templateDir))
    write(RENAMED[relative] ?? relative, fs.readFileSync(path.join(templateDir, relative)));
  write('package.json', `${JSON.stringify(manifest(name, options, uws.spec), null, 2)}\n`);

  return {
    folder,
    name,
    files: files.sort(),
    uws: uws.spec,
    ...(uws.warning !== undefined ? { warning: uws.warning } : {}),
  };
}

function manifest(name: string, options: ProjectOptions, uwsSpec: string): object {
  const major = Number(options.machine.nodeVersion.split('.')[0]);
  return {
    name,
    version: '0.1.0',
    private: true,
    type: options.esm ? 'module' : 'commonjs',
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsc',
      start: 'node dist/src/main.js',
      dev: 'node scripts/dev.mjs',
      // SWC compiles the tests as it compiles the server for dev. The shell expands the pattern (Node 20's runner
      // takes no patterns); the spec reporter is Node 24's default, named so that Node 20 and 22 print the same.
      test: 'node scripts/swc.mjs src test && node --test --test-reporter=spec dist/test/*.test.js',
      typecheck: 'tsc --noEmit',
      // Writes src/api-client.ts, the typed client, from the app's OpenAPI and AsyncAPI documents.
      client: 'node scripts/client.mjs',
      lint: 'biome check .',
      format: 'biome check --write .',
    },
    dependencies: {
      'class-transformer': '^0.5.1',
      'class-validator': '^0.15.1',
      'reflect-metadata': '^0.2.2',
      'rest.uws': restUwsSpec(options.restUws),
      'uWebSockets.js': uwsSpec,
      zod: '^4.6.7',
    },
    devDependencies: {
      '@biomejs/biome': '^2.6.9',
      '@swc/core': '^1.16.22',
      '@types/node': major > 20 ? `^${major}.0.0` : '^20.19.0',
      '@types/ws': '^8.18.1',
      // TypeScript 7 (the native compiler) checks types several times faster than 5.9, and writes the same
      // legacy decorators and metadata for npm run build.
      typescript: '^7.0.2',
      // The tests' WebSocket for the typed client: Node 20 has no global one (Node 22 and browsers do).
      ws: '^8.18.3',
    },
    // The v20.30 build pins ws 8.13.0, inside a header-flood denial-of-service advisory fixed in 8.17.1.
    overrides: { ws: '^8.18.3' },
    // npm 11 runs no install script it was not told to. None is needed: @swc/core's binary comes as an optional
    // platform package (its postinstall only looks for a fallback), and bufferutil and utf-8-validate belong to
    // uWebSockets.js v20.30's JavaScript fallback, which rest.uws does not use. Denied, so npm does not ask.
    allowScripts: { '@swc/core': false, bufferutil: false, 'utf-8-validate': false },
  };
}

/** A path to a tarball or a folder becomes a file: spec (npm would read a bare path relative to the project). */
function restUwsSpec(spec: string): string {
  if (/\.tgz$/.test(spec) || spec.startsWith('.') || path.isAbsolute(spec)) return `file:${path.resolve(spec)}`;
  return spec;
}

/** The folder's name as an npm package name. */
function packageName(base: string): string {
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '')
    .replace(/-+$/, '');
  if (name === '')
    throw new UsageError(`cannot make a package name of "${base}": choose a folder name with letters or digits.`);
  return name.slice(0, 214);
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(dir, relative));
    else out.push(relative);
  }
  return out;
}
