import { bodyOriginOf, errors, type RoutingContext } from '../../plugin';

/**
 * A `@Valid` argument is validated only if it is an object of its class: a string from the text reader,
 * a number or a plain object from an app's own reader would pass no constraint at all and reach the method
 * as something it did not declare. Such a value ends the request before the method runs: 415 when the
 * reader of the request's media type could not make an object, 400 when the body is the wrong shape.
 */
export function checkValidShape(
  ctx: RoutingContext,
  source: string,
  classType: Function | undefined,
  elementType: Function | undefined,
  value: unknown,
): void {
  if (classType !== undefined && !(value instanceof classType)) throw refused(ctx, source, classType.name, value);
  if (elementType === undefined) return;
  if (!Array.isArray(value)) throw refused(ctx, source, `array of ${elementType.name}`, value);
  for (let n = 0; n < value.length; n++) {
    if (!(value[n] instanceof elementType)) throw refused(ctx, source, `${elementType.name} at [${n}]`, value[n]);
  }
}

function refused(ctx: RoutingContext, source: string, expected: string, value: unknown): Error {
  const got =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? `an object that is not a ${expected}`
          : `a ${typeof value}`;
  if (source === 'body' && bodyOriginOf(ctx) === 'other' && (value === null || typeof value !== 'object')) {
    const type = ctx.request.getHeader('content-type') ?? '(none)';
    return errors.RU_ERR_UNSUPPORTED_MEDIA_TYPE(
      `A @Valid ${expected} body cannot be read from Content-Type ${type.slice(0, 80)} (it gives ${got}); send application/json`,
    );
  }
  return errors.RU_ERR_BODY_TYPE(`The ${source} must be a ${expected} for validation; got ${got}`);
}
