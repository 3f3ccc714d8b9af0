import { execute, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

/**
 * How validated documents run: `jit` compiles each (schema, document, operation) once with graphql-jit into a
 * JavaScript function and runs that; `graphql-js` interprets the document with graphql-js's `execute` on every
 * request (the reference behaviour, for debugging). Both give the same answers: every GraphQL test runs on jit,
 * and the benchmark compares the answers byte for byte.
 */
export type ExecutorKind = 'jit' | 'graphql-js';

export interface Execution {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The query text the document was parsed from (its length is the compiled query's size in the cache). */
  query: string;
  operationName: string | null | undefined;
  contextValue: unknown;
  variableValues: Record<string, unknown> | null | undefined;
}

/** Compiled queries kept: a compiled query is code, about as large as its document many times over. */
const MAX_COMPILED = 500;
const MAX_COMPILED_QUERY_CHARS = 4 * 1024 * 1024;

export class QueryExecutor {
  /** Compiled queries (or graphql-jit's refusal, such as an unknown operation) by schema, document and operation. */
  private readonly compiled = new LRUCache<string, CompiledQuery | ExecutionResult>({
    max: MAX_COMPILED,
    maxSize: MAX_COMPILED_QUERY_CHARS,
    maxEntrySize: MAX_COMPILED_QUERY_CHARS / 4,
  });

  /** Schemas are rebuilt after structure and access changes: compiled queries belong to one schema object. */
  private readonly schemaIds = new WeakMap<GraphQLSchema, number>();
  private lastSchemaId = 0;

  constructor(private readonly kind: () => ExecutorKind) {}

  run(execution: Execution): Promise<ExecutionResult> | ExecutionResult {
    const { schema, document, operationName, contextValue, variableValues } = execution;
    if (this.kind() === 'graphql-js') return interpreted(execution);
    // By document object, not by text: hashing a query text again for every cache costs about a microsecond.
    const key = `${this.schemaId(schema)}\u0000${documentId(document)}\u0000${operationName ?? ''}`;
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      compiled = compileQuery(schema, document, operationName ?? undefined);
      this.compiled.set(key, compiled, { size: Math.max(1, execution.query.length + key.length) });
    }
    if (!isCompiledQuery(compiled)) return interpreted(execution);
    const result = compiled.query(undefined, contextValue, variableValues);
    return result instanceof Promise
      ? result.then((settled) => this.checked(settled, execution))
      : this.checked(result, execution);
  }

  /**
   * A result without data is a request error, found before any resolver ran (variables that do not fit, an unknown
   * operation): graphql-js words those differently from graphql-jit, and its words are the API's, so it answers them.
   */
  private checked(result: ExecutionResult, execution: Execution): Promise<ExecutionResult> | ExecutionResult {
    return result.data === undefined ? interpreted(execution) : result;
  }

  private schemaId(schema: GraphQLSchema): number {
    let id = this.schemaIds.get(schema);
    if (id === undefined) {
      id = ++this.lastSchemaId;
      this.schemaIds.set(schema, id);
    }
    return id;
  }

  /** Forgets every compiled query (the schemas they were compiled against were rebuilt). */
  clear(): void {
    this.compiled.clear();
  }
}

const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;

/**
 * A number for each parsed document object, for cache keys: documents are parsed once per text and kept, so a
 * document's number stands for its text (a text parsed again, after its document was dropped, gets a new number).
 */
export function documentId(document: DocumentNode): number {
  let id = documentIds.get(document);
  if (id === undefined) {
    id = ++lastDocumentId;
    documentIds.set(document, id);
  }
  return id;
}

/** graphql-js's execute: the reference behaviour. */
function interpreted(execution: Execution): Promise<ExecutionResult> | ExecutionResult {
  const { schema, document, operationName, contextValue, variableValues } = execution;
  return execute({ schema, document, contextValue, variableValues, operationName }) as
    | Promise<ExecutionResult>
    | ExecutionResult;
}
