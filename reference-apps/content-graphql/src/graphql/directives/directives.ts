import { quoteValue } from '../../model/query-argument-error';
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLError,
  GraphQLInt,
  GraphQLString,
  getNamedType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
} from 'graphql';
import { ATOM, formatPhpDate, isValidTimeZone } from './php-date-format';
import { renderMarkdown } from './markdown';
import { directiveArguments } from './directive-arguments';
import { FormattedDate } from '../scalars';

export const FormatDateTimeDirective = new GraphQLDirective({
  name: 'formatDateTime',
  description:
    'This directive allows for formatting any date to the desired format. It can be applied to all fields, but changes anything only when applied to a DateTime field.',
  locations: [DirectiveLocation.FIELD],
  args: {
    format: {
      type: GraphQLString,
      defaultValue: ATOM,
      description:
        'The format to use. Can be `short`, `medium`, `long`, `full`, or a PHP date format. Defaults to the Atom date-time format.',
    },
    timezone: {
      type: GraphQLString,
      defaultValue: 'UTC',
      description: 'The full name of the timezone, defaults to UTC. (E.g., America/New_York)',
    },
  },
});

export const TransformDirective = new GraphQLDirective({
  name: 'transform',
  description: 'Returns a URL for an asset transform. Only has an effect on the `url` field of assets.',
  locations: [DirectiveLocation.FIELD],
  args: {
    handle: { type: GraphQLString, description: 'The handle of the named transform to use.' },
    transform: { type: GraphQLString, description: 'The handle of the named transform to use.' },
    width: { type: GraphQLInt, description: 'Width for the generated transform' },
    height: { type: GraphQLInt, description: 'Height for the generated transform' },
    mode: { type: GraphQLString, description: 'The mode to use for the generated transform.' },
    position: { type: GraphQLString, description: 'The position to use when cropping, if no focal point specified.' },
    interlace: { type: GraphQLString, description: 'The interlace mode to use for the transform' },
    quality: { type: GraphQLInt, description: 'The quality of the transform' },
    format: { type: GraphQLString, description: 'The format to use for the transform' },
    immediately: {
      type: GraphQLBoolean,
      description:
        'Whether the transform should be generated immediately or only when the image is requested used the generated URL',
    },
  },
});

export const MarkdownDirective = new GraphQLDirective({
  name: 'markdown',
  description: 'Parses the passed field value as Markdown.',
  locations: [DirectiveLocation.FIELD],
  args: {
    flavor: {
      type: GraphQLString,
      description:
        'The “flavor” of Markdown the input should be interpreted with: original, gfm, gfm-comment or extra.',
    },
    inlineOnly: {
      type: GraphQLBoolean,
      defaultValue: false,
      description: 'Specifies whether to only parse inline elements, omitting any `<p>` tags.',
    },
  },
});

export const CONTENT_DIRECTIVES = [FormatDateTimeDirective, TransformDirective, MarkdownDirective];

const FORMAT_LENGTHS: Record<string, string> = {
  short: 'n/j/y g:i A',
  medium: 'M j, Y g:i:s A',
  long: 'F j, Y g:i:s A T',
  full: 'l, F j, Y g:i:s A T',
};

/** Applies the field's directives in the order they are written; only presentation changes, never permissions. */
export function applyDirectives(value: unknown, info: GraphQLResolveInfo): unknown {
  const node = info.fieldNodes[0];
  if (!node?.directives?.length) return value;
  let result = value;
  for (const directive of node.directives) {
    const name = directive.name.value;
    if (name === 'formatDateTime') {
      if (getNamedType(info.returnType).name !== 'DateTime') continue;
      const args = directiveArguments(FormatDateTimeDirective, directive, info.variableValues);
      result = mapValue(result, (v) => formatDate(v, args.format as string | null, args.timezone as string | null));
    } else if (name === 'markdown') {
      const args = directiveArguments(MarkdownDirective, directive, info.variableValues);
      result = mapValue(result, (v) =>
        typeof v === 'string' ? renderMarkdown(v, args.flavor as string | null, args.inlineOnly === true) : v,
      );
    }
  }
  return result;
}

function mapValue(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || value === undefined) return value;
  return Array.isArray(value) ? value.map((v) => mapValue(v, fn)) : fn(value);
}

function formatDate(value: unknown, format: string | null, timezone: string | null): unknown {
  if (value instanceof FormattedDate) return value;
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return value;
  const zone = timezone ?? 'UTC';
  if (!isValidTimeZone(zone))
    throw new GraphQLError(
      `Invalid timezone ${quoteValue(zone)}: use a full timezone name such as "UTC" or "America/New_York"`,
    );
  const pattern = format === null ? ATOM : (FORMAT_LENGTHS[format] ?? format);
  return new FormattedDate(formatPhpDate(date, pattern, zone));
}

/** Wraps a resolver so that its result goes through the directives; promises are awaited first. */
export function withDirectives<TSource, TContext>(
  resolve: GraphQLFieldResolver<TSource, TContext> | undefined,
): GraphQLFieldResolver<TSource, TContext> {
  return (source, args, context, info) => {
    const value = resolve ? resolve(source, args, context, info) : (source as Record<string, unknown>)[info.fieldName];
    if (!info.fieldNodes[0]?.directives?.length) return value;
    if (value instanceof Promise) return value.then((v) => applyDirectives(v, info));
    return applyDirectives(value, info);
  };
}

export { GraphQLError };
