/**
 * rest.uws/plugin: what a plugin author needs beside `rest.uws` itself. The built-in plugins (framework/src/features)
 * are written with `rest.uws` and this entry only, as an adopter's plugin is.
 * Nothing here imports a feature, so features can import it without a cycle.
 * @packageDocumentation
 */

// Errors: one factory per code of the registry (docs/reference/error-codes.md).
export {
  errors,
  CODE,
  type CodedError,
  type ErrorFactory,
  type ErrorFactoryOptions,
  type ErrorOf,
} from './errors/factories';
export type { ErrorCodeTable, ErrorType } from './errors/codes';
