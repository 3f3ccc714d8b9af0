import { NotAcceptableException } from '../../errors/http-errors';
import { negotiate } from '../../io/media-type';
import type { Step } from './step';

/** Accept values whose choice a route keeps; past this the kept choices are dropped and made again. */
const KEPT_CHOICES = 64;

/**
 * Content negotiation before the method runs (a 406 has no side effects). An empty Accept says what no
 * Accept says (any type), so the read never needs the scan that tells an absent header from an empty one.
 * Clients send the same few Accept values: the route keeps its choice for each, so a request costs one lookup
 * (matching the ranges made substrings of every produced type, garbage on every request).
 */
export function negotiateStep(produces: readonly string[], routeText: string): Step {
  const choices = new Map<string, string | undefined>();
  const choose = (accept: string): string | undefined => {
    const kept = choices.get(accept);
    if (kept !== undefined || choices.has(accept)) return kept;
    const chosen = negotiate(accept, produces);
    if (choices.size >= KEPT_CHOICES) choices.clear();
    choices.set(accept, chosen);
    return chosen;
  };
  return (ctx) => {
    const chosen = choose(ctx.request.headerOrEmpty('accept'));
    if (chosen === undefined) {
      throw new NotAcceptableException(
        `None of the acceptable media types is produced by ${routeText}; it produces ${produces.join(', ')}`,
      );
    }
    ctx.contentType = chosen;
  };
}
