import { errors, setRequestId, type RestPlugin } from '../../plugin';
import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_LENGTH, isWellFormedRequestId, MAX_LENGTH_LIMIT } from './request-id-format';

/** Options of `requestId()`. */
export interface RequestIdOptions {
  /** The header read from requests and sent on every response (default `X-Request-Id`). */
  header?: string;
  /**
   * Take the id a request brings when it is well formed (default true): 1 to `maxLength` characters of
   * letters, digits and `-_.:~+/=@`. False: every request gets a new id (a public API whose clients
   * should not choose what goes into its logs).
   */
  fromRequest?: boolean;
  /** Longest id taken from a request (default 128, at most 1024); a longer one is replaced by a new id. */
  maxLength?: number;
  /** Makes a new id (default `crypto.randomUUID()`); what it returns must be well formed too. */
  generate?: () => string;
}

/** Where a request's id is kept in its routing context. */

/**
 * Gives every request an id: the one it brings in `X-Request-Id` when well formed, a new UUID otherwise. The id
 * goes back in the response's `X-Request-Id` (404s and errors included), on every line of the request's
 * `RequestLogger` and on its access log line (`reqId`). An app-wide request hook, installed only when used.
 *
 * ```ts
 * new RestBuilder().use(requestId()).logRequests()
 * ```
 */
export function requestId(options: RequestIdOptions = {}): RestPlugin {
  const header = options.header ?? 'X-Request-Id';
  if (typeof header !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(header)) {
    throw errors.RU_ERR_REQUEST_ID_OPTIONS(
      `rest.uws: requestId: header must be a header name, got ${JSON.stringify(header)}`,
    );
  }
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_LENGTH_LIMIT) {
    throw errors.RU_ERR_REQUEST_ID_OPTIONS(
      `rest.uws: requestId: maxLength must be a whole number from 1 to ${MAX_LENGTH_LIMIT}, got ${String(maxLength)}`,
    );
  }
  const generate = options.generate;
  if (generate !== undefined && typeof generate !== 'function')
    throw errors.RU_ERR_REQUEST_ID_OPTIONS('rest.uws: requestId: generate must be a function returning an id');
  const fromRequest = options.fromRequest !== false;
  const lower = header.toLowerCase();

  const newId =
    generate === undefined
      ? randomUUID
      : (): string => {
          const id = generate();
          if (typeof id !== 'string' || !isWellFormedRequestId(id, MAX_LENGTH_LIMIT)) {
            throw errors.RU_ERR_REQUEST_ID_OPTIONS(
              `rest.uws: requestId: generate() returned ${JSON.stringify(id)}, not a well-formed id`,
            );
          }
          return id;
        };

  return {
    name: 'request-id',
    setup(app) {
      app.onRequest((ctx) => {
        const given = fromRequest ? ctx.request.headerOrEmpty(lower) : '';
        const id = given !== '' && isWellFormedRequestId(given, maxLength) ? given : newId();
        setRequestId(ctx, id);
        ctx.response.putHeader(header, id);
      });
    },
  };
}
