import {
  Kind,
  getDirectiveValues,
  type ArgumentNode,
  type DirectiveNode,
  type GraphQLDirective,
  type ValueNode,
} from 'graphql';

/** Arguments of directives written without variables, by node: the same for every value of every request. */
const known = new WeakMap<DirectiveNode, Record<string, unknown>>();

/**
 * A directive's argument values, as graphql-js's getDirectiveValues gives them. Worked out once per directive
 * node when its arguments hold no variables (`@formatDateTime(format: "Y-m-d")` on a list of entries: once, not
 * once per entry and request).
 */
export function directiveArguments(
  definition: GraphQLDirective,
  node: DirectiveNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const cached = known.get(node);
  if (cached) return cached;
  const values = getDirectiveValues(definition, { directives: [node] } as never, variables) ?? {};
  if (!usesVariables(node.arguments)) known.set(node, values);
  return values;
}

/** Whether any argument value refers to a variable, at any depth of lists and input objects. */
export function usesVariables(args: readonly ArgumentNode[] | undefined): boolean {
  return args?.some((arg) => valueUsesVariables(arg.value)) ?? false;
}

function valueUsesVariables(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(valueUsesVariables);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => valueUsesVariables(field.value));
  return false;
}
