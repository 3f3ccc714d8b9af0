import type { NotFoundResponseWriter } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { Provided } from '../io/registry';
import { isThenable } from '../pipeline/context-values';
import { type ComponentFactory, isClass } from '../settings/components';
import type { NotFoundEntry, SettingsView } from '../settings/settings';
import { errors } from '../errors/factories';

/** Answers an error through the app's exception handlers. */
type Fail = (ctx: RoutingContext, error: unknown) => void | Promise<void>;

/**
 * What an app answers when no route takes a request: 404 from its not-found handlers (the most specific pattern
 * first), else the exception handlers' 404; 405 with Allow when the path has routes of other methods (OPTIONS: 204
 * with Allow).
 */
export class NotFoundAnswers {
  private entries: Array<{ pattern?: RegExp; write: (ctx: RoutingContext) => unknown }> = [];

  constructor(private readonly fail: Fail) {}

  /** Takes the app's not-found handlers again (settings changed). */
  rebuild(settings: SettingsView, components: ComponentFactory): void {
    const entries: NotFoundEntry[] = settings.notFoundEntries();
    // The most specific (longest pattern) first; the catch-all last.
    const sorted = [...entries].sort((a, b) => (b.pattern?.source.length ?? -1) - (a.pattern?.source.length ?? -1));
    this.entries = sorted.map((e) => ({ pattern: e.pattern, write: notFoundWriter(e, components) }));
  }

  notFound(ctx: RoutingContext): void | Promise<void> {
    const path = ctx.request.path();
    for (const entry of this.entries) {
      if (entry.pattern !== undefined && !entry.pattern.test(path)) continue;
      ctx.response.setStatusCode(404);
      try {
        const out = entry.write(ctx);
        if (isThenable(out))
          return Promise.resolve(out).then(
            () => endIfOpen(ctx),
            (err) => this.fail(ctx, err),
          );
        endIfOpen(ctx);
      } catch (err) {
        return this.fail(ctx, err);
      }
      return;
    }
    return this.fail(ctx, errors.RU_ERR_NOT_FOUND(`No route for ${ctx.request.method()} ${path}`));
  }

  methodNotAllowed(ctx: RoutingContext, allowed: readonly string[]): void | Promise<void> {
    const allow = allowed.join(', ');
    if (ctx.request.method() === 'OPTIONS') {
      ctx.response.setStatusCode(204).putHeader('Allow', allow);
      ctx.response.end();
      return;
    }
    return this.fail(
      ctx,
      errors.RU_ERR_METHOD_NOT_ALLOWED(
        `Method ${ctx.request.method()} is not allowed for ${ctx.request.path()}; allowed: ${allow}`,
        { headers: { Allow: allow } },
      ),
    );
  }
}

function notFoundWriter(entry: NotFoundEntry, components: ComponentFactory): (ctx: RoutingContext) => unknown {
  const h = entry.handler;
  if (typeof h === 'function' && !isClass(h))
    return (ctx) => (h as (a: unknown, b: unknown) => unknown)(ctx.request, ctx.response);
  const writer = components.accessor(h as Provided<NotFoundResponseWriter>);
  return (ctx) => writer(ctx).write(ctx.request, ctx.response);
}

function endIfOpen(ctx: RoutingContext): void {
  if (!ctx.response.ended()) ctx.response.end();
}
