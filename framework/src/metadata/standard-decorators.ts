import { errors } from '../errors/factories';

/**
 * rest.uws decorators are TypeScript's "experimental" decorators. Without `experimentalDecorators`,
 * TypeScript (and esbuild) emit standard ECMAScript decorators instead, which pass a context object
 * (`{ kind, name, ... }`) where a property key is expected: recognise that and say what to change.
 */
export function isStandardDecoratorContext(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    'name' in value
  );
}

/** The error thrown when a decorator is called the standard (non-experimental) way. */
export function standardDecoratorError(): TypeError {
  return errors.RU_ERR_STANDARD_DECORATORS(
    "rest.uws: decorators were compiled as standard ECMAScript decorators, but rest.uws uses TypeScript's experimental decorators. " +
      'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json and build with tsc ' +
      '(esbuild and tsx read experimentalDecorators from tsconfig.json but never emit decorator metadata).',
  );
}
