/** A problem with an argument the client sent; its message is shown in the GraphQL `errors` list as is. */
export class QueryArgumentError extends Error {
  override readonly name = 'QueryArgumentError';
}
