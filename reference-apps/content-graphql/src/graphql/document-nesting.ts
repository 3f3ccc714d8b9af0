import { Source, syntaxError, type GraphQLError } from 'graphql';

/**
 * How deeply a document may nest braces, brackets and parentheses. graphql-js parses, validates and executes
 * recursively: a query nested about 2,000 levels deep overflows its stack ("Maximum call stack size exceeded"),
 * and the token limit does not prevent that (`{ a { a ...` is two tokens a level, `[[[...` one). Legitimate
 * queries nest a few dozen levels at most (GraphiQL's introspection query: 14), far below this.
 */
export const MAX_NESTING = 100;

const LEFT_BRACE = 0x7b,
  RIGHT_BRACE = 0x7d,
  LEFT_BRACKET = 0x5b,
  RIGHT_BRACKET = 0x5d,
  LEFT_PAREN = 0x28,
  RIGHT_PAREN = 0x29;
const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  HASH = 0x23,
  LINE_FEED = 0x0a,
  CARRIAGE_RETURN = 0x0d;

/**
 * The syntax error for a document nested deeper than `MAX_NESTING`, found by one pass over its text without
 * recursion (strings and comments skipped, as the lexer does); undefined when it is not too deep. Anything else
 * wrong with the text is left to the parser, which then no longer risks its stack.
 */
export function nestingError(query: string): GraphQLError | undefined {
  let depth = 0;
  const length = query.length;
  for (let i = 0; i < length; i++) {
    const code = query.charCodeAt(i);
    if (code === LEFT_BRACE || code === LEFT_BRACKET || code === LEFT_PAREN) {
      if (++depth > MAX_NESTING) {
        return syntaxError(
          new Source(query),
          i,
          `Document is nested more than ${MAX_NESTING} levels deep (braces, brackets and parentheses). Parsing aborted.`,
        );
      }
    } else if (code === RIGHT_BRACE || code === RIGHT_BRACKET || code === RIGHT_PAREN) {
      if (depth > 0) depth--;
    } else if (code === HASH) {
      while (i + 1 < length && query.charCodeAt(i + 1) !== LINE_FEED && query.charCodeAt(i + 1) !== CARRIAGE_RETURN)
        i++;
    } else if (code === QUOTE) {
      i = isBlockStringStart(query, i) ? endOfBlockString(query, i + 3) : endOfString(query, i + 1);
    }
  }
  return undefined;
}

function isBlockStringStart(text: string, i: number): boolean {
  return text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE;
}

/** Index of the closing quote of a string whose content starts at `i` (the end of the text if unterminated). */
function endOfString(text: string, i: number): number {
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE || code === LINE_FEED || code === CARRIAGE_RETURN) return i;
  }
  return text.length;
}

/** Index of the last quote of a block string whose content starts at `i`; `\"""` does not end it. */
function endOfBlockString(text: string, i: number): number {
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH && text.startsWith('"""', i + 1)) i += 3;
    else if (code === QUOTE && isBlockStringStart(text, i)) return i + 2;
  }
  return text.length;
}
