import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { frameworkDir, repositoryDir, run, temporaryFolder, writeFile } from '../adoption/support/adopter-project';

/**
 * The `code` of rest.uws's errors is typed by the registry (errors/codes.ts): a misspelt `RU_` code fails
 * compilation, while an app's own codes, and codes known only at run time, still go through the public
 * constructors. Compiled against the built declarations, as an app's code is; each `@ts-expect-error` fails the
 * compilation if the line under it compiles.
 */
test("a misspelt rest.uws code fails compilation; an app's own codes compile", async (t) => {
  t.timeout(120_000);
  const project = temporaryFolder('code-types');
  try {
    const index = path.join(frameworkDir, 'dist', 'src', 'index');
    writeFile(
      path.join(project, 'codes.ts'),
      `import { ArgumentException, BadRequestException, ForbiddenException, RegistrationError, TooManyRequestsException, WebApplicationException } from ${JSON.stringify(index)};

// rest.uws's codes, spelt right
new BadRequestException('x', { code: 'RU_ERR_MISSING_ARGUMENT' });
new TooManyRequestsException('x', { code: 'RU_ERR_RATE_LIMITED', headers: { 'Retry-After': '1' } });
new ArgumentException('x', 'RU_ERR_CONVERSION');
new RegistrationError('x', 'RU_ERR_ROUTE_CONFLICT');
new ArgumentException('x');
new RegistrationError('x');
// an app's own codes, and codes known only at run time
new ForbiddenException('x', { code: 'ORDER_LOCKED' });
new WebApplicationException('x', 402, { code: 'PAYMENT_REQUIRED' });
new RegistrationError('x', 'APP_CONFIG');
const fromConfig: string = process.env.CODE ?? 'X';
new BadRequestException('x', { code: fromConfig });
class OrderLocked extends ForbiddenException {
  constructor() {
    super('locked', { code: 'ORDER_LOCKED' });
  }
}
new OrderLocked();
const typed: BadRequestException = new BadRequestException('x', { code: 'APP_CODE' });
void typed;

// misspelt rest.uws codes fail
// @ts-expect-error not a code of the registry
new BadRequestException('x', { code: 'RU_ERR_MISSING_ARGUMNT' });
// @ts-expect-error not a code of the registry
new WebApplicationException('x', 400, { code: 'RU_ERR_BAD_REQUST' });
// @ts-expect-error not a code of the registry
new ArgumentException('x', 'RU_ERR_CONVERSON');
// @ts-expect-error not a code of the registry
new RegistrationError('x', 'RU_ERR_ROUTE_CONFLIKT');
`,
    );
    writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'node16',
          target: 'ES2022',
          types: ['node'],
          typeRoots: [path.join(repositoryDir, 'node_modules', '@types')],
          skipLibCheck: true,
        },
        files: ['codes.ts'],
      }),
    );
    const tsc = path.join(repositoryDir, 'node_modules', '.bin', 'tsc');
    const result = await run(tsc, ['-p', 'tsconfig.json'], project);
    t.is(result.code, 0, result.output);
    // The check itself: a typo without @ts-expect-error is reported, naming the registry.
    fs.appendFileSync(path.join(project, 'codes.ts'), "new BadRequestException('x', { code: 'RU_ERR_NOT_A_CODE' });\n");
    const failed = await run(tsc, ['-p', 'tsconfig.json'], project);
    t.not(failed.code, 0);
    t.regex(failed.output, /RU_ERR_NOT_A_CODE.*registry \(errors\/codes\.ts\)/s);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
