/**
 * rest.uws as an adopter gets it: `npm pack -w rest.uws`, the tarball installed with npm into a
 * fresh project outside this repository (no workspace links), apps compiled there with tsc as
 * CommonJS and as ES modules, started and requested; and the errors adopters meet first, seen from that
 * project. The matrix (.ci/node-matrix.sh) runs it again on Node 22 and 24 with uWebSockets.js v20.57.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UWS_CURRENT_PACKAGE, UWS_NODE20_PACKAGE } from '../../src/adapter/uws-builds';
import {
  TYPESCRIPT_DEPENDENCIES,
  UWS_DEPENDENCY,
  UWS_SPEC,
  copyFixture,
  frameworkDir,
  npmInstall,
  packFramework,
  run,
  runOk,
  startApp,
  temporaryFolder,
  writeFile,
  type PackedFramework,
} from './support/adopter-project';

const SLOW = 180_000;

let workspace = '';
let packed: PackedFramework;
/** The adopter's project: rest.uws from the tarball, its peers, TypeScript. */
let project = '';

const compilerOptions = {
  target: 'ES2022',
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  types: ['node'],
  rootDir: 'src',
};

function writeJson(file: string, value: unknown): void {
  writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

test.before(async (t) => {
  t.timeout(SLOW);
  workspace = temporaryFolder('adoption');
  packed = await packFramework(workspace);
  project = path.join(workspace, 'adopter');
  writeJson(path.join(project, 'package.json'), { name: 'adopter', version: '1.0.0', private: true });
  await npmInstall(project, [
    packed.tarball,
    'reflect-metadata@^0.2.2',
    UWS_DEPENDENCY,
    'class-validator@^0.15.1',
    'class-transformer@^0.5.1',
    'tsyringe@^4.10.0',
    ...TYPESCRIPT_DEPENDENCIES,
  ]);

  // CommonJS: the classic "module": "commonjs" setup (resolved through main/types).
  const cjs = path.join(project, 'cjs');
  // skipLibCheck off here: rest.uws's own declaration files must type-check (the optional peers are installed).
  writeJson(path.join(cjs, 'tsconfig.json'), {
    compilerOptions: { ...compilerOptions, module: 'commonjs', skipLibCheck: false, outDir: 'dist' },
    include: ['src'],
  });
  for (const name of ['app', 'main', 'report-build', 'route-conflict', 'reader-type', 'writer-type'])
    copyFixture(name, path.join(cjs, 'src', `${name}.ts`));
  // The same app as ES modules with "module": "nodenext" (resolved through exports' import condition).
  const esm = path.join(project, 'esm');
  writeJson(path.join(esm, 'package.json'), { type: 'module' });
  writeJson(path.join(esm, 'tsconfig.json'), {
    compilerOptions: { ...compilerOptions, module: 'nodenext', outDir: 'dist' },
    include: ['src'],
  });
  for (const name of ['app', 'main']) copyFixture(name, path.join(esm, 'src', `${name}.ts`));
});

test.after.always(() => {
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

const tsc = (cwd: string, ...args: string[]) => run(path.join(project, 'node_modules', '.bin', 'tsc'), args, cwd);

test.serial(
  'the tarball holds compiled JavaScript, declarations, source maps, README, LICENSE and CHANGELOG, nothing else',
  (t) => {
    const files = packed.files;
    const unexpected = files.filter(
      (f) =>
        !/^dist\/src\/.+\.(js|js\.map|d\.ts|d\.ts\.map)$/.test(f) &&
        ![
          'package.json',
          'README.md',
          'LICENSE',
          'CHANGELOG.md',
          'esm/index.mjs',
          'esm/index.d.mts',
          'esm/plugin.mjs',
          'esm/plugin.d.mts',
        ].includes(f),
    );
    t.deepEqual(unexpected, [], 'only the build, the ESM entry and the documents');
    for (const required of [
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/index.js.map',
      'dist/src/index.d.ts.map',
      'esm/index.mjs',
      'esm/index.d.mts',
      'dist/src/plugin.js',
      'dist/src/plugin.d.ts',
      'esm/plugin.mjs',
      'esm/plugin.d.mts',
    ]) {
      t.true(files.includes(required), `${required} is in the tarball`);
    }
    t.false(
      files.some(
        (f) => f.startsWith('dist/test/') || f.startsWith('src/') || f.startsWith('test/') || f.includes('tsbuildinfo'),
      ),
      'no tests, sources or build state',
    );
    const stale = files.filter(
      (f) =>
        f.endsWith('.js') &&
        f.startsWith('dist/src/') &&
        !fs.existsSync(path.join(frameworkDir, f.replace(/^dist\//, '').replace(/\.js$/, '.ts'))),
    );
    t.deepEqual(stale, [], 'every compiled file has its source (no output left from a deleted one)');
    const manifest = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules', 'rest.uws', 'package.json'), 'utf8'),
    );
    t.deepEqual(Object.keys(manifest.peerDependencies).sort(), [
      '@opentelemetry/api',
      'class-transformer',
      'class-validator',
      'reflect-metadata',
      'swagger-ui-dist',
      'tsyringe',
      'uWebSockets.js',
    ]);
    t.is(
      fs.lstatSync(path.join(project, 'node_modules', 'rest.uws')).isSymbolicLink(),
      false,
      'installed from the tarball, not linked',
    );
  },
);

test.serial('a CommonJS app compiled with tsc serves requests', async (t) => {
  t.timeout(SLOW);
  const cjs = path.join(project, 'cjs');
  const compiled = await tsc(cjs, '-p', '.');
  t.is(compiled.code, 0, compiled.output);
  const app = await startApp(process.execPath, ['dist/main.js'], cjs);
  try {
    t.regex(app.banner, /\(commonjs\)$/);
    await checkGreetings(t, app.url);
  } finally {
    t.is(await app.stop(), 0, app.output());
  }
});

test.serial(
  'the same app as ES modules (module nodenext) serves requests; import and require see the same exports',
  async (t) => {
    t.timeout(SLOW);
    const esm = path.join(project, 'esm');
    const compiled = await tsc(esm, '-p', '.');
    t.is(compiled.code, 0, compiled.output);
    t.regex(
      fs.readFileSync(path.join(esm, 'dist', 'main.js'), 'utf8'),
      /^import \{ startServer \} from 'rest\.uws';/m,
      'tsc kept the ES import',
    );
    const app = await startApp(process.execPath, ['dist/main.js'], esm);
    try {
      t.regex(app.banner, /\(esm\)$/);
      await checkGreetings(t, app.url);
    } finally {
      t.is(await app.stop(), 0, app.output());
    }
    const compare = await runOk(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as esm from 'rest.uws';
       import { createRequire } from 'node:module';
       const cjs = createRequire(import.meta.url)('rest.uws');
       console.log(JSON.stringify({
         entry: import.meta.resolve('rest.uws'),
         missing: Object.keys(cjs).filter((k) => !(k in esm)),
         same: esm.RestBuilder === cjs.RestBuilder,
         count: Object.keys(cjs).length,
       }));`,
      ],
      esm,
    );
    const seen = JSON.parse(compare.stdout);
    t.regex(seen.entry, /node_modules\/rest\.uws\/esm\/index\.mjs$/);
    t.deepEqual(seen.missing, [], 'every CommonJS export is an ES export');
    t.true(seen.same, 'one copy of the framework for both');
    t.true(seen.count > 50);
  },
);

test.serial("the example at the top of the package README compiles in the adopter's project", async (t) => {
  t.timeout(SLOW);
  const readme = fs.readFileSync(path.join(project, 'node_modules', 'rest.uws', 'README.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  t.truthy(example, 'the README opens with a TypeScript example');
  const folder = path.join(project, 'readme');
  writeFile(path.join(folder, 'src', 'example.ts'), example!);
  writeJson(path.join(folder, 'tsconfig.json'), {
    compilerOptions: { ...compilerOptions, module: 'node20', noEmit: true, noUnusedLocals: true },
    include: ['src'],
  });
  const compiled = await tsc(folder, '-p', '.');
  t.is(compiled.code, 0, compiled.output);
});

interface BuildReport {
  built: boolean;
  name?: string;
  code?: string;
  message?: string;
}

async function buildReport(fixture: string): Promise<BuildReport> {
  const result = await run(process.execPath, [`dist/${fixture}.js`], path.join(project, 'cjs'));
  const line = result.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as BuildReport;
}

test.serial(
  'two routes that match the same paths with different names: RU_ERR_ROUTE_CONFLICT names both and says to use one name',
  async (t) => {
    const report = await buildReport('route-conflict');
    t.is(report.code, 'RU_ERR_ROUTE_CONFLICT');
    t.is(report.name, 'RegistrationError');
    t.regex(
      report.message!,
      /^Conflicting routes: GET \/orders\/\{orderId\} \(LegacyOrders\.get\) and GET \/orders\/\{id\} \(Orders\.get\) match the same paths/,
    );
    t.regex(report.message!, /use one name/);
  },
);

test.serial('a reader whose type does not fit the parameter: RU_ERR_READER_TYPE says what to fix', async (t) => {
  const report = await buildReport('reader-type');
  t.is(report.code, 'RU_ERR_READER_TYPE');
  t.regex(report.message!, /reader DateReader produces Date, which cannot be assigned to the parameter type Order/);
  t.regex(report.message!, /fix the reader, or add @SuppressCheck/);
});

test.serial('a writer whose type does not fit the return type: RU_ERR_WRITER_TYPE says what to fix', async (t) => {
  const report = await buildReport('writer-type');
  t.is(report.code, 'RU_ERR_WRITER_TYPE');
  t.regex(report.message!, /writer DateWriter writes Date, but the method returns Order/);
  t.regex(report.message!, /fix the writer, or add @SuppressCheck/);
});

test.serial(
  'compiled without emitDecoratorMetadata: the app refuses to start, naming the parameter, its explicit type and the tsconfig flags',
  async (t) => {
    t.timeout(SLOW);
    const cjs = path.join(project, 'cjs');
    const compiled = await tsc(
      cjs,
      '-p',
      '.',
      '--skipLibCheck',
      '--emitDecoratorMetadata',
      'false',
      '--outDir',
      'dist-no-metadata',
    );
    t.is(compiled.code, 0, 'tsc itself accepts it: nothing warns but rest.uws');
    const started = await run(process.execPath, ['dist-no-metadata/main.js'], cjs);
    t.not(started.code, 0);
    t.regex(started.output, /RU_ERR_NO_DECORATOR_METADATA/);
    t.regex(
      started.output,
      /GreetingResource\.greet\(\) parameter 0 \(@PathParam\("to"\)\): its type is unknown, as this build emitted no decorator metadata/,
    );
    t.regex(started.output, /@PathParam\("to", \{ type: Number \}\)/);
    t.regex(started.output, /"experimentalDecorators": true and "emitDecoratorMetadata": true/);
    t.regex(started.output, /esbuild, tsx and Bun never emit it/);
  },
);

test.serial(
  'compiled without experimentalDecorators: tsc reports the decorators, and the emitted code says which flags to set',
  async (t) => {
    t.timeout(SLOW);
    const cjs = path.join(project, 'cjs');
    const compiled = await tsc(
      cjs,
      '-p',
      '.',
      '--skipLibCheck',
      '--experimentalDecorators',
      'false',
      '--emitDecoratorMetadata',
      'false',
      '--outDir',
      'dist-standard',
    );
    t.not(compiled.code, 0);
    t.regex(compiled.output, /error TS1206: Decorators are not valid here/);
    const started = await run(process.execPath, ['dist-standard/main.js'], cjs);
    t.not(started.code, 0);
    t.regex(started.output, /RU_ERR_STANDARD_DECORATORS/);
    t.regex(started.output, /Set "experimentalDecorators": true and "emitDecoratorMetadata": true/);
  },
);

test.serial(
  'the uWebSockets.js build for another Node or glibc: refused with this machine and the build to install',
  async (t) => {
    t.timeout(SLOW);
    // Node 20 on glibc < 2.38 (this machine's Node 20 run): v20.57 does not load (GLIBC_2.38 not found).
    // Node 22+ (the matrix): v20.30 has no binary for it and switches to its JavaScript fallback.
    const wrong = UWS_SPEC === UWS_NODE20_PACKAGE ? UWS_CURRENT_PACKAGE : UWS_NODE20_PACKAGE;
    const other = path.join(workspace, 'other-build');
    fs.cpSync(path.join(project, 'cjs', 'dist'), path.join(other, 'dist'), { recursive: true });
    writeJson(path.join(other, 'package.json'), { name: 'other-build', version: '1.0.0', private: true });
    await npmInstall(other, [
      packed.tarball,
      'reflect-metadata@^0.2.2',
      `uWebSockets.js@${wrong}`,
      'class-validator@^0.15.1',
      'class-transformer@^0.5.1',
      'tsyringe@^4.10.0',
    ]);
    const started = await run(process.execPath, ['dist/main.js'], other);
    t.not(started.code, 0);
    if (wrong === UWS_CURRENT_PACKAGE) {
      t.regex(
        started.output,
        /rest\.uws: uWebSockets\.js \(@btc-vision\/uwebsockets\.js 20\.57\.0\) is installed but cannot load on this machine: .*GLIBC_2\.38/,
      );
    } else {
      t.regex(
        started.output,
        /rest\.uws: uWebSockets\.js \(@trufflesuite\/uws-js-unofficial 20\.30\.0-unofficial\.0\) could not load its native binary uws_linux_x64_\d+\.node/,
      );
      t.regex(started.output, /REST_UWS_ALLOW_FALLBACK=1/);
    }
    t.regex(
      started.output,
      new RegExp(
        `This machine: Node ${process.version.replace(/\./g, '\\.')} \\(ABI \\d+\\), linux-x64, glibc \\d+\\.\\d+`,
      ),
    );
    t.true(started.output.includes(`Fix: add "uWebSockets.js": "${UWS_SPEC}" to your dependencies`), started.output);
  },
);

test.serial(
  'peers left out (npm --legacy-peer-deps): reflect-metadata, then uWebSockets.js, each named with the command to run',
  async (t) => {
    t.timeout(SLOW);
    const bare = path.join(workspace, 'without-peers');
    writeJson(path.join(bare, 'package.json'), { name: 'without-peers', version: '1.0.0', private: true });
    await npmInstall(bare, [packed.tarball], ['--legacy-peer-deps']);
    t.false(fs.existsSync(path.join(bare, 'node_modules', 'reflect-metadata')), 'npm left reflect-metadata out');

    const load = await run(process.execPath, ['-e', "require('rest.uws')"], bare);
    t.not(load.code, 0);
    t.regex(load.output, /rest\.uws: the package reflect-metadata is not installed/);
    t.regex(load.output, /npm install reflect-metadata/);

    await npmInstall(bare, ['reflect-metadata@^0.2.2'], ['--legacy-peer-deps']);
    const build = await run(
      process.execPath,
      ['-e', "const { RestBuilder } = require('rest.uws'); new RestBuilder().build();"],
      bare,
    );
    t.not(build.code, 0);
    t.regex(build.output, /rest\.uws: the package uWebSockets\.js is not installed/);
    t.true(build.output.includes(`add "uWebSockets.js": "${UWS_SPEC}" to your dependencies`), build.output);
  },
);

/** The requests both module systems must answer alike. */
async function checkGreetings(t: import('ava').ExecutionContext, url: string): Promise<void> {
  const greeting = await fetch(`${url}/greetings/ada?times=3`);
  t.is(greeting.status, 200);
  t.regex(greeting.headers.get('content-type') ?? '', /^application\/json/);
  t.deepEqual(
    await greeting.json(),
    { to: 'ada', times: 3 },
    'times arrives as a number: the design metadata made it through',
  );

  const bad = await fetch(`${url}/greetings/ada?times=many`);
  t.is(bad.status, 400);
  t.regex(await bad.text(), /times/);

  const saved = await fetch(`${url}/greetings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'grace' }),
  });
  t.is(saved.status, 201);
  t.is(saved.headers.get('location'), '/greetings/grace');
  t.deepEqual(await saved.json(), { saved: 1 });

  t.is((await fetch(`${url}/nowhere`)).status, 404);
}
