import {
  GraphQLError, Kind, getNamedType, isInterfaceType, isObjectType, type ASTVisitor, type FieldNode, type FragmentDefinitionNode,
  type GraphQLCompositeType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
} from 'graphql';
import { COMPLEXITY } from './schema-builder';

/**
 * `maxGraphqlDepth` and `maxGraphqlComplexity` as validation rules, with the wording of the CMS's GraphQL library
 * (`Max query depth should be 3 but got 5.`). Root fields are at depth 0. A field costs its `complexity`
 * extension (1 by default, 10 for a root query, 25 for an eager-loaded relation, 200 for an asset URL with a transform)
 * plus the cost of its selections. Like the CMS, queries that ask for `__schema` or `__type` are exempt.
 */
export function depthAndComplexityRule(maxDepth: number, maxComplexity: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition: {
      leave(operation: OperationDefinitionNode) {
        const document = context.getDocument();
        if (isIntrospection(operation, document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION))) return;
        const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
        const schema = context.getSchema();
        const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
        if (!root) return;
        const { depth, complexity } = measure(schema, root, operation.selectionSet, fragments, 0, new Set());
        if (maxDepth > 0 && depth > maxDepth) context.reportError(new GraphQLError(`Max query depth should be ${maxDepth} but got ${depth}.`, { nodes: [operation] }));
        if (maxComplexity > 0 && complexity > maxComplexity) context.reportError(new GraphQLError(`Max query complexity should be ${maxComplexity} but got ${complexity}.`, { nodes: [operation] }));
      },
    },
  });
}

function measure(schema: GraphQLSchema, parent: GraphQLCompositeType, selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>,
  depth: number, visiting: Set<string>): { depth: number; complexity: number } {
  let maxDepth = depth;
  let complexity = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const { depth: d, complexity: c } = measureField(schema, parent, selection, fragments, depth, visiting);
      maxDepth = Math.max(maxDepth, d);
      complexity += c;
    } else {
      let fragmentSet: SelectionSetNode;
      let typeName: string | undefined;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        fragmentSet = selection.selectionSet;
        typeName = selection.typeCondition?.name.value;
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue;
        visiting.add(name);
        fragmentSet = fragment.selectionSet;
        typeName = fragment.typeCondition.name.value;
      }
      const type = typeName ? schema.getType(typeName) : parent;
      if (type && (isObjectType(type) || isInterfaceType(type))) {
        const result = measure(schema, type, fragmentSet, fragments, depth, visiting);
        maxDepth = Math.max(maxDepth, result.depth);
        complexity += result.complexity;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) visiting.delete(selection.name.value);
    }
  }
  return { depth: maxDepth, complexity };
}

function measureField(schema: GraphQLSchema, parent: GraphQLCompositeType, node: FieldNode, fragments: Map<string, FragmentDefinitionNode>,
  depth: number, visiting: Set<string>): { depth: number; complexity: number } {
  if (node.name.value.startsWith('__')) return { depth, complexity: 0 };
  const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
  const field = fields[node.name.value];
  let own = typeof field?.extensions?.complexity === 'number' ? field.extensions.complexity : COMPLEXITY.simple;
  if (node.name.value === 'url' && (node.arguments?.length || node.directives?.some((d) => d.name.value === 'transform'))) own = COMPLEXITY.cpuHeavy;
  if (!node.selectionSet || !field) return { depth, complexity: own };
  const type = getNamedType(field.type);
  if (!isObjectType(type) && !isInterfaceType(type)) return { depth, complexity: own };
  const inner = measure(schema, type, node.selectionSet, fragments, depth + 1, visiting);
  return { depth: inner.depth, complexity: own + inner.complexity };
}

function isIntrospection(operation: OperationDefinitionNode, fragments: FragmentDefinitionNode[]): boolean {
  let found = false;
  const visit = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (found) return;
      if (s.kind === Kind.FIELD && (s.name.value === '__schema' || s.name.value === '__type')) { found = true; return; }
      if (s.kind === Kind.FIELD || s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet);
    }
  };
  visit(operation.selectionSet);
  for (const fragment of fragments) visit(fragment.selectionSet);
  return found;
}
