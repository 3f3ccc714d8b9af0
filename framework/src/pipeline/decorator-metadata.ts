import { errors } from '../errors/factories';
import type { ArgumentType, ParamMetadata } from '../metadata/types';

/**
 * An argument's type comes from its decorator (`{ type }`, `@Context(Type)`, `@BeanParam(Type)`) or from the
 * `design:paramtypes` / `design:type` metadata a build with `emitDecoratorMetadata` writes (tsc, SWC, Vite 8's Oxc
 * transform). A build without it (esbuild, tsx, Bun) runs as long as every argument names its type; an argument
 * with neither would silently see strings, so it is refused at registration, saying how to give the type.
 */
export function assertArgumentType(
  meta: ParamMetadata,
  type: ArgumentType | undefined,
  decorator: string,
  where: string,
): void {
  if (type !== undefined) return;
  // A @ContextReader provides the value whatever the type.
  if (meta.source === 'context' && meta.contextReader !== undefined) return;
  const reflectLoaded = typeof (Reflect as { getMetadata?: unknown }).getMetadata === 'function';
  throw errors.RU_ERR_NO_DECORATOR_METADATA(
    [
      `${where} (${decorator}): its type is unknown, as this build emitted no decorator metadata. Either:`,
      `  - name the type in the decorator: ${explicitForm(meta)}; or`,
      reflectLoaded
        ? `  - build with a tool that emits the metadata (tsc, SWC with jsc.transform.decoratorMetadata, Vite 8 or Vitest 4.1) and set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of your tsconfig.json. esbuild, tsx and Bun never emit it.`
        : `  - import 'reflect-metadata' (or rest.uws) before your classes are defined, and build with "experimentalDecorators" and "emitDecoratorMetadata" on.`,
    ].join('\n'),
  );
}

const VALUE_DECORATORS: Partial<Record<ParamMetadata['source'], string>> = {
  path: 'PathParam',
  query: 'QueryParam',
  matrix: 'MatrixParam',
  cookie: 'CookieParam',
  header: 'HeaderParam',
  form: 'FormParam',
};

/** The decorator with its explicit type, as the user would write it. */
function explicitForm(meta: ParamMetadata): string {
  const name = meta.name === undefined ? '' : `${JSON.stringify(meta.name)}, `;
  switch (meta.source) {
    case 'context':
      return '@Context(TheType)';
    case 'bean':
      return '@BeanParam(TheClass)';
    case 'body':
      return '@BodyParam({ type: TheClass })';
    default:
      return `@${VALUE_DECORATORS[meta.source]}(${name}{ type: Number }) (or String, Boolean, BigInt, Date, an enum object, a class, [Type] for a list)`;
  }
}
