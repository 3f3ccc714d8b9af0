import { ERROR_CODES, type ErrorCode, type ErrorCodeTable } from './codes';
import {
  ArgumentException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotAcceptableException,
  NotFoundException,
  PayloadTooLargeException,
  RegistrationError,
  ServiceUnavailableException,
  TooManyRequestsException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
  WebApplicationException,
} from './http-errors';

/** What a factory takes besides the message. */
export interface ErrorFactoryOptions {
  /** The error that caused it. */
  cause?: unknown;
  /** Headers the error answer carries (HTTP errors only; `Allow` with 405, `Retry-After` with 429...). */
  headers?: Record<string, string | readonly string[]>;
}

/** An error of a registry code that is a built-in class (TypeError, RangeError, Error), with its code. */
export type CodedError<E extends Error, C extends ErrorCode> = E & { readonly code: C };

type Entry<C extends ErrorCode> = ErrorCodeTable[C];

/** The error a code's factory builds, from its registry entry (see ErrorType in errors/codes.ts). */
export type ErrorOf<C extends ErrorCode> =
  Entry<C> extends { readonly type: 'argument' }
    ? ArgumentException<C>
    : Entry<C> extends { readonly type: 'type' }
      ? CodedError<TypeError, C>
      : Entry<C> extends { readonly type: 'range' }
        ? CodedError<RangeError, C>
        : Entry<C> extends { readonly type: 'error' }
          ? CodedError<Error, C>
          : Entry<C> extends { readonly status: number }
            ? WebApplicationException<C>
            : RegistrationError<C>;

/**
 * Builds the error of one code. HTTP errors have a default message (`HTTP 403 Forbidden`); the others say what to
 * fix, so their message is required.
 */
export type ErrorFactory<C extends ErrorCode> =
  Entry<C> extends { readonly status: number }
    ? (message?: string, options?: ErrorFactoryOptions) => ErrorOf<C>
    : (message: string, options?: ErrorFactoryOptions) => ErrorOf<C>;

type HttpClass = new (
  message?: string,
  options?: { code?: never; headers?: ErrorFactoryOptions['headers']; cause?: unknown },
) => WebApplicationException;

/** The class of each status that has one; other statuses are a WebApplicationException of that status. */
const HTTP_CLASSES: Readonly<Record<number, HttpClass>> = {
  400: BadRequestException,
  401: UnauthorizedException,
  403: ForbiddenException,
  404: NotFoundException,
  405: MethodNotAllowedException,
  406: NotAcceptableException,
  409: ConflictException,
  410: GoneException,
  413: PayloadTooLargeException,
  415: UnsupportedMediaTypeException,
  422: UnprocessableEntityException,
  429: TooManyRequestsException,
  500: InternalServerErrorException,
  503: ServiceUnavailableException,
};

const BUILT_IN = { type: TypeError, range: RangeError, error: Error } as const;

function build(code: ErrorCode, message: string | undefined, options: ErrorFactoryOptions): Error {
  const { status, type } = ERROR_CODES[code];
  const { cause, headers } = options;
  const http = { code: code as never, headers, cause };
  if (type === 'argument') return new ArgumentException(message ?? '', code as never, cause);
  if (type !== undefined) {
    const error = new BUILT_IN[type](message, cause !== undefined ? { cause } : undefined);
    return Object.assign(error, { code });
  }
  if (status === null) return new RegistrationError(message ?? '', code as never, cause);
  const Known = HTTP_CLASSES[status];
  return Known !== undefined ? new Known(message, http) : new WebApplicationException(message, status, http);
}

function factoryOf<C extends ErrorCode>(code: C): ErrorFactory<C> {
  const factory = (message?: string, options: ErrorFactoryOptions = {}): Error => {
    const error = build(code, message, options);
    // The stack starts where the error is thrown, not in here.
    Error.captureStackTrace?.(error, factory);
    return error;
  };
  return factory as unknown as ErrorFactory<C>;
}

/**
 * One factory per code of the registry (errors/codes.ts), as Fastify's `createError` table: the code's status and
 * class come from the registry, the message from where it is thrown. rest.uws builds every error it raises
 * through these, so each carries its code; plugins may raise rest.uws's codes the same way.
 *
 * ```ts
 * throw errors.RU_ERR_CORS_OPTIONS('enableCors needs an origin pattern');
 * throw errors.RU_ERR_RATE_LIMITED('Too many requests', { headers: { 'Retry-After': '3' } });
 * ```
 */
export const errors: { readonly [C in ErrorCode]: ErrorFactory<C> } = Object.freeze(
  Object.fromEntries((Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [code, factoryOf(code)])),
) as { readonly [C in ErrorCode]: ErrorFactory<C> };

/** Each code of the registry as its own value (`CODE.RU_ERR_VALIDATION`), for a class that names its code itself. */
export const CODE: { readonly [C in ErrorCode]: C } = Object.freeze(
  Object.fromEntries(Object.keys(ERROR_CODES).map((code) => [code, code])),
) as { readonly [C in ErrorCode]: C };
