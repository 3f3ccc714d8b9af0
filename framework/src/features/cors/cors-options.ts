import { HTTP_METHODS, errors, type HttpMethod } from '../../plugin';

/** CORS settings in object form (the positional form of `enableCors` fills the same fields). */
export interface CorsOptions {
  /** Allowed origins: a regular expression matched against the whole `Origin` header, or `*` for any. */
  origin: string | RegExp;
  /** Send `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`). */
  allowCredentials?: boolean;
  /** How long browsers may cache a preflight answer (`Access-Control-Max-Age`). */
  maxAgeSeconds?: number;
  /** Request headers a browser may send; empty means any it asks for. */
  allowedHeaders?: Iterable<string>;
  /** Methods a browser may use; empty means all. */
  methods?: Iterable<HttpMethod | string>;
  /** Response headers scripts may read beyond the CORS-safelisted ones (`Access-Control-Expose-Headers`). */
  exposedHeaders?: Iterable<string>;
}

/** CORS settings checked and prepared once, when the app is built. */
export interface CorsPolicy {
  anyOrigin: boolean;
  originPattern: RegExp | undefined;
  allowCredentials: boolean;
  maxAge: string | undefined;
  /** Lower-case names; empty: any requested header is allowed. */
  allowedHeaders: ReadonlySet<string>;
  allowedHeadersValue: string | undefined;
  methods: ReadonlySet<string>;
  methodsValue: string;
  exposedHeadersValue: string | undefined;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function tokens(list: Iterable<string> | undefined, what: string): string[] {
  const out = [...(list ?? [])].map((s) => String(s).trim());
  for (const t of out)
    if (!TOKEN.test(t))
      throw errors.RU_ERR_CORS_OPTIONS(`rest.uws: enableCors: ${JSON.stringify(t)} is not a valid ${what}`);
  return out;
}

/** Validates the options and precomputes header values; mistakes fail at startup. */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const { origin } = options;
  if (origin === undefined || origin === null || origin === '')
    throw errors.RU_ERR_CORS_OPTIONS('rest.uws: enableCors needs an origin pattern (a regular expression, or "*")');
  const anyOrigin = origin === '*';
  let originPattern: RegExp | undefined;
  if (!anyOrigin) {
    const source = typeof origin === 'string' ? origin : origin.source;
    try {
      originPattern = new RegExp(
        `^(?:${source})$`,
        typeof origin === 'string' ? '' : origin.flags.replace(/[gy]/g, ''),
      );
    } catch (err) {
      throw errors.RU_ERR_CORS_OPTIONS(
        `rest.uws: enableCors: invalid origin pattern ${JSON.stringify(source)}: ${(err as Error).message}`,
      );
    }
  }
  const maxAgeSeconds = options.maxAgeSeconds;
  if (
    maxAgeSeconds !== undefined &&
    maxAgeSeconds !== null &&
    !(Number.isInteger(maxAgeSeconds) && maxAgeSeconds >= 0)
  ) {
    throw errors.RU_ERR_CORS_OPTIONS(
      `rest.uws: enableCors: maxAgeSeconds must be a whole number of seconds, got ${maxAgeSeconds}`,
    );
  }
  const headers = tokens(options.allowedHeaders, 'header name');
  const methods = tokens(options.methods, 'method').map((m) => m.toUpperCase());
  const exposed = tokens(options.exposedHeaders, 'header name');
  const allMethods = methods.length === 0;
  // Browsers never send TRACE (the Fetch standard forbids it), so "every method" leaves it out.
  const every = HTTP_METHODS.filter((m) => m !== 'TRACE');
  return {
    anyOrigin,
    originPattern,
    allowCredentials: options.allowCredentials === true,
    maxAge: maxAgeSeconds === undefined || maxAgeSeconds === null ? undefined : String(maxAgeSeconds),
    allowedHeaders: new Set(headers.map((h) => h.toLowerCase())),
    allowedHeadersValue: headers.length > 0 ? headers.join(', ') : undefined,
    methods: new Set(allMethods ? every : methods),
    methodsValue: (allMethods ? every : methods).join(', '),
    exposedHeadersValue: exposed.length > 0 ? exposed.join(', ') : undefined,
  };
}
