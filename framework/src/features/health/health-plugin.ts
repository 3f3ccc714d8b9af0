import { errors, excludeFromAccessLog, type RestPlugin, type RoutingContext } from '../../plugin';
import { checkTimeout, Readiness, type ReadinessCheck, type ReadinessResult } from './readiness';

/** Options of `health()`. */
export interface HealthOptions {
  /** Where liveness is answered (default `/health`): 200 `{"status":"ok"}` while the process runs. */
  healthPath?: string;
  /** Where readiness is answered (default `/ready`): 200 when every check passes, else 503 naming the failed ones. */
  readyPath?: string;
  /** What readiness checks: a database ping, a queue's connection... (none: ready while not shutting down). */
  checks?: readonly ReadinessCheck[];
  /** How long a check may take unless it says otherwise, in ms (default 2000). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2000;
const OK = '{"status":"ok"}';
const SHUTTING_DOWN = '{"status":"shutting down"}';

/**
 * Liveness at `GET /health` and readiness at `GET /ready` (`HEAD` too), answered before routing: no route, no
 * authentication, no access log line. Readiness runs the app's checks, each bounded by its timeout, and
 * answers 503 while one fails or once the server began shutting down (`startServer`/`serve`), so a load
 * balancer stops sending requests while those in flight drain. Other methods on these paths go on to routing.
 *
 * ```ts
 * new RestBuilder().use(health({ checks: [{ name: 'database', check: () => pool.query('select 1'), timeoutMs: 1000 }] }))
 * ```
 */
export function health(options: HealthOptions = {}): RestPlugin {
  const healthPath = options.healthPath ?? '/health';
  const readyPath = options.readyPath ?? '/ready';
  for (const [name, path] of [
    ['healthPath', healthPath],
    ['readyPath', readyPath],
  ] as const) {
    if (typeof path !== 'string' || !/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/.test(path)) {
      throw errors.RU_ERR_HEALTH_OPTIONS(
        `rest.uws: health: ${name} must be a path starting with /, got ${JSON.stringify(path)}`,
      );
    }
  }
  if (healthPath === readyPath)
    throw errors.RU_ERR_HEALTH_OPTIONS(`rest.uws: health: healthPath and readyPath are both ${healthPath}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  checkTimeout(timeoutMs, 'timeoutMs');
  const checks = [...(options.checks ?? [])];

  return {
    name: 'health',
    setup(app) {
      const readiness = new Readiness(checks, timeoutMs, () => app.logger);
      let shuttingDown = false;
      app.onShutdown(() => {
        shuttingDown = true;
      });
      app.onRequest((ctx) => {
        const path = ctx.request.path();
        if (path !== healthPath && path !== readyPath) return false;
        const method = ctx.request.method();
        if (method !== 'GET' && method !== 'HEAD') return false;
        excludeFromAccessLog(ctx);
        if (path === healthPath) answer(ctx, 200, OK);
        else if (shuttingDown) answer(ctx, 503, SHUTTING_DOWN);
        else if (checks.length === 0) answer(ctx, 200, OK);
        else {
          readiness.run().then(
            (result) => answer(ctx, result.ready ? 200 : 503, readinessBody(result)),
            (err: unknown) => void app.fail(ctx, err),
          );
        }
        return true;
      });
    },
  };
}

function readinessBody(result: ReadinessResult): string {
  return JSON.stringify(
    result.ready
      ? { status: 'ok', checks: result.checks }
      : { status: 'unavailable', failed: result.failed, checks: result.checks },
  );
}

function answer(ctx: RoutingContext, status: number, body: string): void {
  const response = ctx.response;
  if (response.aborted()) return;
  response.setStatusCode(status);
  response.putHeader('Content-Type', 'application/json');
  // A probe must see the server's state now, never a cache's.
  response.putHeader('Cache-Control', 'no-store');
  response.end(body);
}
