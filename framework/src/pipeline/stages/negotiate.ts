import { NotAcceptableException } from '../../errors/http-errors';
import { negotiate } from '../../io/media-type';
import type { Step } from './step';

/**
 * Content negotiation before the method runs (a 406 has no side effects). An empty Accept says what no
 * Accept says (any type), so the read never needs the scan that tells an absent header from an empty one.
 */
export function negotiateStep(produces: readonly string[], routeText: string): Step {
  return (ctx) => {
    const chosen = negotiate(ctx.request.headerOrEmpty('accept'), produces);
    if (chosen === undefined) {
      throw new NotAcceptableException(
        `None of the acceptable media types is produced by ${routeText}; it produces ${produces.join(', ')}`,
      );
    }
    ctx.contentType = chosen;
  };
}
