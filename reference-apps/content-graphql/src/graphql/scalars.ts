import { quoteValue } from '../model/query-argument-error';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { formatPhpDate, ATOM } from './directives/php-date-format';

/** A DateTime already formatted by `@formatDateTime`; the scalar passes it through. */
export class FormattedDate {
  constructor(readonly text: string) {}
}

/** Dates serialize as ATOM in UTC (`2019-08-21T13:05:00+00:00`), like the CMS. */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description:
    'The `DateTime` scalar type represents a point in time, in ATOM format (`Y-m-d\\TH:i:sP`) and UTC unless formatted otherwise.',
  serialize(value) {
    if (value instanceof FormattedDate) return value.text;
    if (value instanceof Date) return formatPhpDate(value, ATOM, 'UTC');
    if (typeof value === 'string') {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return formatPhpDate(date, ATOM, 'UTC');
    }
    throw new GraphQLError(`DateTime cannot represent value: ${quoteValue(value)}`);
  },
  parseValue(value) {
    if (typeof value !== 'string' || Number.isNaN(new Date(value).getTime()))
      throw new GraphQLError(`DateTime cannot represent value: ${quoteValue(value)}`);
    return new Date(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || Number.isNaN(new Date(ast.value).getTime()))
      throw new GraphQLError('DateTime must be a date string');
    return new Date(ast.value);
  },
});

/** Int, String or Boolean: ids and operators like `"not 4"` or `">= 3"` in one argument type, as the CMS has it. */
export const QueryArgumentScalar = new GraphQLScalarType({
  name: 'QueryArgument',
  description:
    'The `QueryArgument` scalar type represents a value to be using in CMS element queries: an Int, a String or a Boolean.',
  serialize: (value) => value,
  parseValue(value) {
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )
      return value;
    throw new GraphQLError(`QueryArgument cannot represent value: ${quoteValue(value)}`);
  },
  parseLiteral(ast) {
    switch (ast.kind) {
      case Kind.INT:
        return Number.parseInt(ast.value, 10);
      case Kind.FLOAT:
        return Number.parseFloat(ast.value);
      case Kind.STRING:
        return ast.value;
      case Kind.BOOLEAN:
        return ast.value;
      default:
        throw new GraphQLError('QueryArgument must be an Int, a String or a Boolean');
    }
  },
});

/** Number field values: integers stay integers, decimals stay decimals. */
export const NumberScalar = new GraphQLScalarType({
  name: 'Number',
  description: 'The `Number` scalar type represents a number that can be an integer or a float.',
  serialize(value) {
    const n = typeof value === 'string' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n))
      throw new GraphQLError(`Number cannot represent value: ${quoteValue(value)}`);
    return n;
  },
  parseValue(value) {
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new GraphQLError(`Number cannot represent value: ${quoteValue(value)}`);
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    throw new GraphQLError('Number must be an Int or a Float');
  },
});
