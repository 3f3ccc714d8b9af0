/** A problem with an argument the client sent; its message is shown in the GraphQL `errors` list as is. */
export class QueryArgumentError extends Error {
  override readonly name = 'QueryArgumentError';
}

/** A client's value as JSON for an error message, cut short: errors must not echo megabytes back. */
export function quoteValue(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
