/**
 * The API reference (`npm run -w rest.uws docs`, TypeDoc) builds without a warning, so every public
 * export is documented; and the same settings do fail on an undocumented export.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { frameworkDir, repositoryDir, run, temporaryFolder, writeFile } from './support/adopter-project';

const typedoc = path.join(repositoryDir, 'node_modules', '.bin', 'typedoc');

test("the API reference builds from rest.uws's doc comments with no undocumented export", async (t) => {
  t.timeout(180_000);
  const out = temporaryFolder('api-reference');
  try {
    const result = await run(typedoc, ['--options', 'typedoc.json', '--out', out], frameworkDir, {}, 170_000);
    t.is(result.code, 0, result.output);
    t.notRegex(result.output, /\[warning\]|\[error\]/, result.output);
    const index = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    t.regex(index, /rest\.uws/);
    for (const page of ['classes/RestBuilder.html', 'functions/inject.html', 'classes/WebApplicationException.html']) {
      t.true(fs.existsSync(path.join(out, page)), `${page} is generated`);
    }
    const modules = fs.readFileSync(path.join(out, 'modules.html'), 'utf8');
    for (const name of ['GET', 'Path', 'startServer', 'RegistrationError'])
      t.true(modules.includes(`>${name}<`), `${name} is listed`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test('the same TypeDoc settings fail the build on an undocumented export', async (t) => {
  t.timeout(120_000);
  const project = temporaryFolder('undocumented');
  try {
    const settings = JSON.parse(fs.readFileSync(path.join(frameworkDir, 'typedoc.json'), 'utf8'));
    writeFile(
      path.join(project, 'index.ts'),
      '/** Documented. */\nexport function documented(): number {\n  return 1;\n}\n\nexport function forgotten(): number {\n  return 2;\n}\n',
    );
    writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'node20', target: 'ES2022', types: [] },
        files: ['index.ts'],
      }),
    );
    writeFile(
      path.join(project, 'typedoc.json'),
      JSON.stringify({
        validation: settings.validation,
        treatWarningsAsErrors: settings.treatWarningsAsErrors,
        disableSources: true,
        entryPoints: ['index.ts'],
        tsconfig: 'tsconfig.json',
        out: 'api',
        readme: 'none',
        name: 'undocumented',
      }),
    );
    const result = await run(typedoc, ['--options', 'typedoc.json'], project, {}, 110_000);
    t.not(result.code, 0);
    t.regex(result.output, /forgotten.*does not have any documentation/);
    t.notRegex(result.output, /documented \(Function\).*does not have any documentation/);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
