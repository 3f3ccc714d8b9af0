import {
  GraphQLError,
  Kind,
  getNamedType,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { COMPLEXITY } from './schema-builder';

export interface QueryLimits {
  /** `maxGraphqlDepth`: 0 = no limit. Root fields are at depth 0. */
  maxDepth: number;
  /** `maxGraphqlComplexity`: 0 = no limit. */
  maxComplexity: number;
  /** `maxGraphqlAliases`: aliased fields in an operation, fragments counted each time they are spread; 0 = no limit. */
  maxAliases: number;
}

/**
 * How often one response key may be selected in one selection set (fragments included). Always on: graphql-js's
 * OverlappingFieldsCanBeMerged rule compares every pair of same-named fields, so a document repeating one field
 * thousands of times costs seconds of CPU to validate (measured: 2,000 × `entries { title }`, 36 KB, 6 s).
 * Legitimate queries repeat a field a handful of times (once per fragment on the same type).
 */
export const MAX_SAME_FIELD = 50;

/** What a selection set costs, independent of where it is used (so fragments are measured once). */
interface Measure {
  /** Deepest field below this set, relative to it: 0 when the set holds only leaves. */
  depth: number;
  complexity: number;
  aliases: number;
  /** How often each response key is selected at this level, through inline fragments and spreads. */
  keys: Map<string, number>;
}

/**
 * `maxGraphqlDepth`, `maxGraphqlComplexity` and `maxGraphqlAliases`, with the wording of the CMS's GraphQL library
 * (`Max query depth should be 3 but got 5.`), and the same-field guard. Runs before graphql-js's own validation
 * (which is quadratic on repeated fields) and in time linear in the document: each fragment is measured once,
 * however often and however deeply it is spread.
 *
 * Costs: a field costs its `complexity` extension (1 by default, 10 for a root query, 25 for an eager-loaded relation,
 * 200 for an asset URL with a transform) plus its selections. Introspection fields (`__schema`, `__type`, `__typename`)
 * cost nothing and add no depth: graphql-js bounds introspection nesting itself (MaxIntrospectionDepthRule). Unlike the
 * CMS, a query that also asks for `__schema` is not exempt from the limits: that would let any query skip them.
 */
export function checkQueryLimits(schema: GraphQLSchema, document: DocumentNode, limits: QueryLimits): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const measured = new Map<string, Measure>();
  const inProgress = new Set<string>();
  const errors: GraphQLError[] = [];
  let reportedSameField = false;
  const empty = (): Measure => ({ depth: 0, complexity: 0, aliases: 0, keys: new Map() });

  const fragmentMeasure = (name: string): Measure => {
    const known = measured.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // Unknown fragments and cycles are graphql-js's to report; they add nothing here.
    if (!fragment || inProgress.has(name)) return empty();
    inProgress.add(name);
    const type = schema.getType(fragment.typeCondition.name.value);
    const result =
      type && (isObjectType(type) || isInterfaceType(type))
        ? measureSet(type, fragment.selectionSet)
        : measureSet(null, fragment.selectionSet);
    inProgress.delete(name);
    measured.set(name, result);
    return result;
  };

  const measureField = (
    parent: GraphQLCompositeType | null,
    node: FieldNode,
  ): { depth: number; complexity: number; aliases: number } => {
    const aliases = node.alias ? 1 : 0;
    const name = node.name.value;
    if (name.startsWith('__')) {
      const inner = node.selectionSet ? measureSet(null, node.selectionSet, true) : empty();
      return { depth: 0, complexity: 0, aliases: aliases + inner.aliases };
    }
    const fields = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields() : {};
    const field = fields[name];
    let own = typeof field?.extensions?.complexity === 'number' ? field.extensions.complexity : COMPLEXITY.simple;
    if (name === 'url' && (node.arguments?.length || node.directives?.some((d) => d.name.value === 'transform')))
      own = COMPLEXITY.cpuHeavy;
    if (!node.selectionSet) return { depth: 0, complexity: own, aliases };
    const type = field ? getNamedType(field.type) : null;
    const inner = measureSet(type && (isObjectType(type) || isInterfaceType(type)) ? type : null, node.selectionSet);
    return { depth: 1 + inner.depth, complexity: own + inner.complexity, aliases: aliases + inner.aliases };
  };

  /** `introspection`: inside `__schema`/`__type`, where nothing costs or counts depth, but aliases and repeats do. */
  function measureSet(
    parent: GraphQLCompositeType | null,
    selectionSet: SelectionSetNode,
    insideIntrospection = false,
  ): Measure {
    // Fragments and inline fragments on __Type, __Field... (GraphiQL's introspection query) are introspection too.
    const introspection = insideIntrospection || (parent?.name.startsWith('__') ?? false);
    const result = empty();
    const add = (part: Measure) => {
      result.depth = Math.max(result.depth, part.depth);
      result.complexity += part.complexity;
      result.aliases += part.aliases;
      for (const [key, count] of part.keys) result.keys.set(key, (result.keys.get(key) ?? 0) + count);
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        result.keys.set(key, (result.keys.get(key) ?? 0) + 1);
        const field = measureField(parent, selection);
        if (introspection) {
          result.aliases += field.aliases;
        } else {
          result.depth = Math.max(result.depth, field.depth);
          result.complexity += field.complexity;
          result.aliases += field.aliases;
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const typeName = selection.typeCondition?.name.value;
        const type = typeName ? schema.getType(typeName) : parent;
        add(
          measureSet(
            type && (isObjectType(type) || isInterfaceType(type)) ? type : null,
            selection.selectionSet,
            introspection,
          ),
        );
      } else {
        add(fragmentMeasure(selection.name.value));
      }
    }
    for (const [key, count] of result.keys) {
      if (count > MAX_SAME_FIELD) {
        if (!reportedSameField)
          errors.push(
            new GraphQLError(
              `The field "${key}" is selected ${count} times in one selection set; at most ${MAX_SAME_FIELD} are accepted.`,
              { nodes: [selectionSet] },
            ),
          );
        // One report is enough; the count is not carried further up.
        reportedSameField = true;
        result.keys.set(key, 1);
      }
    }
    return result;
  }

  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const operation: OperationDefinitionNode = definition;
    const root =
      operation.operation === 'query'
        ? schema.getQueryType()
        : operation.operation === 'mutation'
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    const { depth, complexity, aliases } = measureSet(root ?? null, operation.selectionSet);
    if (limits.maxDepth > 0 && depth > limits.maxDepth)
      errors.push(
        new GraphQLError(`Max query depth should be ${limits.maxDepth} but got ${depth}.`, { nodes: [operation] }),
      );
    if (limits.maxComplexity > 0 && complexity > limits.maxComplexity)
      errors.push(
        new GraphQLError(`Max query complexity should be ${limits.maxComplexity} but got ${complexity}.`, {
          nodes: [operation],
        }),
      );
    if (limits.maxAliases > 0 && aliases > limits.maxAliases)
      errors.push(
        new GraphQLError(`Max query aliases should be ${limits.maxAliases} but got ${aliases}.`, {
          nodes: [operation],
        }),
      );
  }
  return errors;
}
