import { RegistrationError } from '../errors/http-errors';
import { designParamTypes } from '../metadata/store';

/**
 * TypeScript emits `design:paramtypes` for every decorated method when `emitDecoratorMetadata` is on
 * (an empty list for a method without parameters). Without it, parameter types are unknown and
 * conversions, readers and validation would silently see strings: refuse the route at registration.
 */
export function assertDecoratorMetadata(prototype: object, method: string | symbol, where: string): void {
  if (designParamTypes(prototype, method) !== undefined) return;
  const reflectLoaded = typeof (Reflect as { getMetadata?: unknown }).getMetadata === 'function';
  throw new RegistrationError(
    [
      `${where}: TypeScript's decorator metadata is missing, so rest.uws cannot see the parameter types.`,
      reflectLoaded
        ? `  Fix: compile with tsc and set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json.`
        : `  Fix: import 'reflect-metadata' (or rest.uws) before your classes are defined, and compile with "experimentalDecorators" and "emitDecoratorMetadata" on.`,
      `  esbuild and the tools built on it (tsx, Vite, Vitest) never emit decorator metadata, even with these flags: build with tsc`,
      `  (or swc with jsc.transform.decoratorMetadata), then run the JavaScript it writes.`,
    ].join('\n'),
    'RU_ERR_NO_DECORATOR_METADATA',
  );
}
