/**
 * The route serving the Prometheus text (`metricsPath`), and who may read it (`metricsAccess`). The metrics name every
 * route of the app and show its load and its errors, so the plugin makes the choice explicit: a scraper's bearer
 * token, roles under the app's own authentication, or public (for a listener only the scraper reaches).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ApiExclude,
  Authenticate,
  Authorize,
  Context,
  errors,
  GET,
  HttpServerResponse,
  Path,
  PermitAll,
  RolesAllowed,
  User,
  type AuthorizationProvider,
  type RestAuthenticationProvider,
  type RoutingContext,
} from '../../plugin';
import { PROMETHEUS_CONTENT_TYPE, type PrometheusMetrics } from './prometheus';

/**
 * Who may read the metrics: `{ token }` only a request with `Authorization: Bearer <token>` (what Prometheus sends with
 * its `authorization` setting; the app's authentication does not apply to the route); `{ roles }` users the app's
 * authentication identifies (`authenticateWith`) having any of the roles, as `@RolesAllowed`; `'public'` anyone, as
 * the OpenAPI document.
 */
export type MetricsAccess =
  | {
      /** The bearer token a scraper sends (at least 16 characters, compared in constant time). */
      readonly token: string;
    }
  | {
      /** The roles, any of which lets an authenticated user read the metrics. */
      readonly roles: readonly string[];
    }
  | 'public';

/** RFC 6750 token syntax (token68), which a bearer header carries. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** Short tokens are guessed: 16 characters is the least taken (`openssl rand -hex 32` gives 64). */
const MIN_TOKEN_LENGTH = 16;

/** Checks `metricsAccess` when the plugin is made. */
export function checkMetricsAccess(access: unknown): asserts access is MetricsAccess {
  const fail = (why: string): never => {
    throw errors.RU_ERR_PLUGIN(`rest.uws: openTelemetry: metricsAccess ${why}`);
  };
  if (access === 'public') return;
  if (access === null || typeof access !== 'object')
    fail(`must be { token }, { roles } or 'public', got ${JSON.stringify(access)}`);
  const keys = Object.keys(access as object);
  if (keys.length !== 1 || (keys[0] !== 'token' && keys[0] !== 'roles'))
    fail(`must have one key, token or roles, got ${JSON.stringify(keys)}`);
  if ('token' in (access as object)) {
    const token = (access as { token: unknown }).token;
    if (typeof token !== 'string' || !TOKEN68.test(token) || token.length < MIN_TOKEN_LENGTH)
      fail(`token must be at least ${MIN_TOKEN_LENGTH} characters of the bearer token syntax (A-Z a-z 0-9 -._~+/)`);
  } else {
    const roles = (access as { roles: unknown }).roles;
    if (!Array.isArray(roles) || roles.length === 0 || roles.some((r) => typeof r !== 'string' || r === ''))
      fail('roles must be a non-empty array of role names');
  }
}

/** The scraper's identity once its token matched. */
const SCRAPER = new User('metrics-scraper');

/** The scrape token, compared in constant time (both sides hashed: the lengths leak nothing either). */
class ScrapeTokenAuthentication implements RestAuthenticationProvider<string> {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = createHash('sha256').update(token).digest();
  }

  provideCredentials(ctx: RoutingContext): string | null {
    return BEARER.exec(ctx.request.headerOrEmpty('authorization'))?.[1] ?? null;
  }

  authenticate(token: string): User | null {
    return timingSafeEqual(createHash('sha256').update(token).digest(), this.expected) ? SCRAPER : null;
  }

  challenge(rejected: boolean): string {
    return rejected ? 'Bearer realm="metrics", error="invalid_token"' : 'Bearer realm="metrics"';
  }
}

/** The token identified the scraper: the app's authorization provider, which knows no scraper, is not asked. */
const SCRAPER_ALLOWED: AuthorizationProvider = {
  getId: () => 'metrics-scraper',
  getAuthorizations: (user) => user === SCRAPER,
};

/** The route serving the Prometheus text at `path`, readable as `access` says. */
export function metricsResource(path: string, metrics: PrometheusMetrics, access: MetricsAccess): Function {
  @Path(path)
  @ApiExclude
  class PrometheusMetricsResource {
    @GET
    scrape(@Context response: HttpServerResponse): void {
      response.putHeader('Content-Type', PROMETHEUS_CONTENT_TYPE);
      response.putHeader('Cache-Control', 'no-store');
      response.end(metrics.text());
    }
  }
  if (access === 'public') PermitAll(PrometheusMetricsResource);
  else if ('token' in access) {
    Authenticate(new ScrapeTokenAuthentication(access.token))(PrometheusMetricsResource);
    Authorize(SCRAPER_ALLOWED)(PrometheusMetricsResource);
  } else RolesAllowed(...access.roles)(PrometheusMetricsResource);
  return PrometheusMetricsResource;
}
