/**
 * Figures of the typed client (docs/reference/typed-client.md): the size of the client's runtime in a browser bundle
 * (esbuild, minified, gzip), the time `tsc --noEmit` takes on a program using a client of an app with 200 routes, and
 * the editor's completion time in that program (tsserver, see editor-completion.ts).
 * Not request-path timings: run once, on a quiet machine, with
 *   npx tsc -b benchmarks && nice -n 10 node benchmarks/dist/src/client/client-figures.js
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { IsInt, IsString } from 'class-validator';
import {
  ApiResponse,
  BodyParam,
  GET,
  generateClient,
  openApiDocument,
  Path,
  PathParam,
  POST,
  QueryParam,
  RestBuilder,
} from 'rest.uws';
import { completionTimes } from './editor-completion';

class Item {
  @IsString() id!: string;
  @IsInt() count!: number;
}

/** `classes` REST classes of `perClass` routes each: GET with a path and a query parameter, POST with a body. */
function appOf(classes: number, perClass: number): RestBuilder {
  const builder = new RestBuilder();
  for (let c = 0; c < classes; c++) {
    const resource = { [`Resource${c}`]: class {} }[`Resource${c}`]!;
    for (let m = 0; m < perClass; m++) {
      const name = `op${m}`;
      const proto = resource.prototype as Record<string, unknown>;
      proto[name] = () => ({ id: 'x', count: 1 });
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (m % 2 === 0) {
        Reflect.defineMetadata('design:paramtypes', [String, Number], proto, name);
        (GET as unknown as MethodDecorator)(proto, name, descriptor);
        Path(`/r${m}/{id}`)(proto, name, descriptor);
        PathParam('id')(proto, name, 0);
        QueryParam('limit')(proto, name, 1);
      } else {
        Reflect.defineMetadata('design:paramtypes', [Item], proto, name);
        (POST as unknown as MethodDecorator)(proto, name, descriptor);
        Path(`/r${m}`)(proto, name, descriptor);
        BodyParam()(proto, name, 0);
      }
      ApiResponse(200, Item)(proto, name, descriptor);
    }
    Path(`/c${c}`)(resource);
    builder.register(resource);
  }
  return builder;
}

function run(command: string, args: string[], cwd: string): { ms: number; output: string; code: number | null } {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return {
    ms: Number(process.hrtime.bigint() - start) / 1e6,
    output: `${result.stdout}${result.stderr}`,
    code: result.status,
  };
}

async function main(): Promise<void> {
  const repository = path.resolve(__dirname, '../../../..');
  const work = fs.mkdtempSync(path.join(repository, 'benchmarks', 'dist', 'client-figures-'));
  const tsc = require.resolve('typescript/bin/tsc');
  const esbuild = path.join(repository, 'node_modules', '.bin', 'esbuild');
  const tsserver = path.join(path.dirname(require.resolve('typescript')), 'tsserver.js');
  try {
    const figures: Record<string, unknown> = {
      node: process.version,
      cpu: os.cpus()[0]?.model,
      cores: os.cpus().length,
    };
    for (const [label, classes, perClass] of [
      ['one route', 1, 1],
      ['200 routes', 20, 10],
    ] as const) {
      const dir = path.join(work, label.replace(/ /g, '-'));
      fs.mkdirSync(dir);
      const doc = openApiDocument(appOf(classes, perClass).build(), { title: 'Figures', version: '1' });
      fs.writeFileSync(path.join(dir, 'api-client.ts'), generateClient({ openapi: doc }));
      // A caller using one operation of each class, as an app's code would.
      const calls = Array.from(
        { length: classes },
        (_, c) => `  await client.Resource${c}.op0({ path: { id: 'x' }, query: { limit: 1 } });`,
      );
      const caller = `import { createClient } from './api-client';\nexport async function main() {\n  const client = createClient({ baseUrl: 'http://localhost:8080' });\n${calls.join('\n')}\n}\nvoid main();\n`;
      fs.writeFileSync(path.join(dir, 'caller.ts'), caller);
      const options = [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'commonjs',
        '--lib',
        'es2022,dom',
        '--types',
        'node',
        '--skipLibCheck',
      ];
      const compilerOptions = {
        strict: true,
        target: 'es2022',
        module: 'commonjs',
        lib: ['es2022', 'dom'],
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
      };
      const checked = run(process.execPath, [tsc, ...options, 'caller.ts'], dir);
      if (checked.code !== 0) throw new Error(checked.output);
      const bundled = run(
        esbuild,
        ['caller.ts', '--bundle', '--minify', '--format=esm', '--platform=browser', '--outfile=bundle.js'],
        dir,
      );
      if (bundled.code !== 0) throw new Error(bundled.output);
      const bundle = fs.readFileSync(path.join(dir, 'bundle.js'));
      // The editor: tsserver on the same program (a tsconfig.json with the same options), completions on the first
      // call's line (4): after `client.` (the classes) and inside its query object (the parameters).
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['caller.ts'] }));
      const line = caller.split('\n')[3]!;
      const completion = await completionTimes(tsserver, path.join(dir, 'caller.ts'), [
        { label: 'after client.', line: 4, offset: line.indexOf('client.') + 'client.'.length + 1 },
        { label: 'in the query object', line: 4, offset: line.indexOf('limit') + 1 },
      ]);
      figures[label] = {
        generatedLines: fs.readFileSync(path.join(dir, 'api-client.ts'), 'utf8').split('\n').length,
        tscNoEmitMs: Math.round(checked.ms),
        bundleBytes: bundle.length,
        bundleGzipBytes: zlib.gzipSync(bundle).length,
        completion,
      };
    }
    // tsc on an empty program: the part of the time that is tsc starting and reading the libraries.
    fs.writeFileSync(path.join(work, 'empty.ts'), 'export {};\n');
    const empty = run(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--lib', 'es2022,dom', '--types', 'node', '--skipLibCheck', 'empty.ts'],
      work,
    );
    figures['tsc on an empty file (ms)'] = Math.round(empty.ms);
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
