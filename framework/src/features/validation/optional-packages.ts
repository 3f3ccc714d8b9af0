import { errors } from '../../plugin';

/**
 * class-validator and class-transformer are optional peer dependencies: loaded the first time
 * validation is used, with a message that says what to install when they are missing.
 */
function load<T>(name: string, why: string): T {
  try {
    return require(name) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND') {
      throw errors.RU_ERR_MISSING_PACKAGE(`${why} needs the package ${name}: npm install ${name}`);
    }
    throw err;
  }
}

let classValidatorModule: typeof import('class-validator') | undefined;
let classTransformerModule: typeof import('class-transformer') | undefined;

export function classValidator(): typeof import('class-validator') {
  return (classValidatorModule ??= load<typeof import('class-validator')>('class-validator', 'Validation'));
}

export function classTransformer(): typeof import('class-transformer') {
  return (classTransformerModule ??= load<typeof import('class-transformer')>(
    'class-transformer',
    'Validation of request bodies',
  ));
}
