/**
 * Vitest 4.1 with Vite 8 (its Oxc transform) writes decorator metadata when the project's tsconfig asks for it:
 * routes with no explicit type anywhere (path, query, bean, @Valid body, @Context) pass their tests under
 * `vitest run`; the same project without emitDecoratorMetadata is refused at registration
 * (RU_ERR_NO_DECORATOR_METADATA). Vitest and Vite are installed into a fresh folder from npm (cached after the
 * first run); rest.uws and class-validator are this checkout's.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  copyFixture,
  frameworkDir,
  npmInstall,
  repositoryDir,
  run,
  temporaryFolder,
  writeFile,
} from './support/adopter-project';

const SLOW = 240_000;
let project = '';

test.before(async (t) => {
  t.timeout(SLOW);
  project = temporaryFolder('vitest');
  writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'vitest-api', private: true }, null, 2));
  await npmInstall(project, ['vitest@~4.1.0', 'vite@^8.0.0']);
  const modules = path.join(project, 'node_modules');
  fs.symlinkSync(frameworkDir, path.join(modules, 'rest.uws'), 'dir');
  for (const name of ['class-validator', 'class-transformer'])
    fs.symlinkSync(path.join(repositoryDir, 'node_modules', name), path.join(modules, name), 'dir');
  copyFixture('vitest-routes', path.join(project, 'test', 'routes.test.ts'));
});

test.after.always(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

const tsconfig = (emitDecoratorMetadata: boolean) =>
  writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'node20',
        strict: true,
        experimentalDecorators: true,
        ...(emitDecoratorMetadata ? { emitDecoratorMetadata: true } : {}),
        skipLibCheck: true,
      },
    }),
  );

const vitest = () => run('npx', ['vitest', 'run', '--reporter=verbose'], project, { NO_COLOR: '1', CI: '1' }, SLOW);

test.serial('with emitDecoratorMetadata, every route of the suite passes under vitest run', async (t) => {
  t.timeout(SLOW);
  tsconfig(true);
  const result = await vitest();
  t.is(result.code, 0, result.output);
  t.regex(result.output, /Tests {2}4 passed \(4\)/);
  t.regex(result.output, /v4\.1\.\d+/, 'Vitest 4.1 ran');
  t.true(
    fs.readFileSync(path.join(project, 'node_modules', 'vite', 'package.json'), 'utf8').includes('"version": "8.'),
    'with Vite 8',
  );
});

test.serial('without emitDecoratorMetadata, the same routes are refused at registration', async (t) => {
  t.timeout(SLOW);
  tsconfig(false);
  const result = await vitest();
  t.not(result.code, 0, result.output);
  t.regex(result.output, /Tests {2}4 failed \(4\)/);
  t.regex(
    result.output,
    /RegistrationError: Items\.\w+\(\) parameter 0 \(@\w+(\("\w+"\))?\): its type is unknown, as this build emitted no decorator metadata/,
  );
});
