import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type OperationTypeNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { appTracer, inSpan } from 'app-support/telemetry';
import type { ContentStore } from '../storage/content-store';
import type { ChangeNotice } from '../storage/change-notice';
import type { Catalog } from '../storage/catalog';
import { ElementQueryEngine } from '../storage/element-query/element-query';
import { QueryArgumentError } from '../model/query-argument-error';
import type { ElementScope } from '../model/element-scope';
import type { AccessStore, GqlSchemaRecord } from '../storage/access-store';
import { resolveScope } from '../domain/access/scope';
import { TokenResolver } from '../domain/access/token-resolver';
import { ImageTransformer } from '../domain/assets/image-transforms';
import { buildGraphqlSchema } from './schema-builder';
import { checkQueryLimits } from './limits';
import { nestingError } from './document-nesting';
import type { LRUCache } from 'lru-cache';
import { boundedCache } from './bounded-cache';
import { RequestContext } from './request-context';
import { ResultCache } from './result-cache';
import { QueryExecutor, documentId } from './query-executor';
import { UrlBuilder } from './url-builder';
import { DEFAULT_GRAPHQL_SETTINGS, type GraphqlSettings } from './graphql-settings';
import type { CachedGraphqlAnswer, GraphqlPhase, GraphqlRequest, GraphqlResponse } from './graphql-response';

const GENERIC_ERROR = 'Something went wrong when processing the GraphQL query.';

interface ParsedDocument {
  maxTokens: number;
  document: DocumentNode | readonly GraphQLError[];
}

interface State {
  catalog: Catalog;
  engine: ElementQueryEngine;
  urls: UrlBuilder;
  schemas: Map<string, { schema: GraphQLSchema; scope: ElementScope }>;
  validations: LRUCache<string, readonly GraphQLError[]>;
}

/**
 * The content GraphQL API without any transport: `execute({ authorization, query, variables, operationName })`
 * returns `{ status, body }`. Holds the per-schema GraphQL schemas, the token table, the parsed-document and
 * validation caches and the result cache, and drops them when content, structure or access changes.
 */
export class GraphqlService {
  readonly settings: GraphqlSettings;
  readonly tokens: TokenResolver;
  readonly cache = new ResultCache();
  readonly transformer: ImageTransformer;
  private state: Promise<State> | null = null;
  /** The state once loaded, for the synchronous cache path. */
  private loaded: State | null = null;
  /**
   * Parsed documents (or their syntax errors) by query text, with the token limit they were parsed under; bounded
   * by size, since the texts come from clients.
   */
  private readonly documents = boundedCache<ParsedDocument>(2000, 16 * 1024 * 1024, (key) => key.length * 4);
  private expiryChecked: Promise<void> | null = null;
  private lastVersion: string | null = null;
  private poller: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;
  private readonly executor = new QueryExecutor(() => this.settings.executor);
  /** Spans of the GraphQL phases when telemetry is on (app-support/telemetry); undefined: none, at no cost. */
  private readonly tracer: Tracer | undefined = appTracer('content-graphql');

  constructor(
    readonly store: ContentStore,
    readonly access: AccessStore,
    settings: Partial<GraphqlSettings> = {},
  ) {
    this.settings = { ...DEFAULT_GRAPHQL_SETTINGS, ...settings };
    this.tokens = new TokenResolver(access);
    this.transformer = new ImageTransformer(store.db, store.assetsRoot);
    this.unsubscribe = store.onChange((kind, version) => {
      this.lastVersion = version;
      this.onChange(kind);
    });
    if (this.settings.changePollMs > 0) {
      this.poller = setInterval(() => void this.pollVersion(), this.settings.changePollMs);
      this.poller.unref();
    }
  }

  /**
   * The server's own address, once it listens (a port of 0 is known only then): `@web` in site and volume URLs
   * stands for it, unless a public URL was configured.
   */
  servedAt(url: string): void {
    this.settings.publicUrl = url;
    this.onChange('structure');
  }

  close(): void {
    if (this.poller) clearInterval(this.poller);
    this.unsubscribe();
  }

  /** Drops what the change makes stale: results always; schemas, tokens and the catalog after structure or access changes. */
  onChange(kind: 'content' | 'structure' | 'access'): void {
    this.cache.clear();
    this.transformer.forgetKnownFiles();
    this.expiryChecked = null;
    if (kind !== 'content') {
      this.state = null;
      this.loaded = null;
      this.tokens.invalidate();
      this.executor.clear();
    }
  }

  /**
   * A change announced by another instance or process (PostgreSQL NOTIFY): drop what it makes stale, as for a
   * change made here. Its version is remembered, so the poll does not take the same change for an unknown one.
   */
  applyNotice(notice: ChangeNotice): void {
    if (notice.origin === this.store.instanceId) return;
    if (notice.kind !== 'content') this.store.changedElsewhere();
    this.onChange(notice.kind);
    this.lastVersion = notice.version;
  }

  /** Notices may have been missed (the listening connection was down): drop everything. */
  forgetAll(): void {
    this.store.changedElsewhere();
    this.onChange('structure');
  }

  private async pollVersion(): Promise<void> {
    try {
      const version = await this.store.contentVersion();
      if (this.lastVersion !== null && version !== this.lastVersion) {
        this.store.changedElsewhere();
        this.onChange('structure');
      }
      this.lastVersion = version;
    } catch {
      // The database may be closing; the next poll tries again.
    }
  }

  private loadState(): Promise<State> {
    if (this.state) return this.state;
    const loading: Promise<State> = this.store
      .catalog()
      .then((catalog) => {
        const state = {
          catalog,
          engine: new ElementQueryEngine(this.store.db, catalog),
          urls: new UrlBuilder(catalog, this.settings.publicUrl),
          schemas: new Map(),
          // By schema, limits and document object (documents are kept per text): the key is short, each entry small.
          validations: boundedCache<readonly GraphQLError[]>(
            2000,
            16 * 1024 * 1024,
            (key, errors) => key.length + 256 * errors.length,
          ),
        };
        // A change while loading dropped this load; only the current one may become the loaded state.
        if (this.state === loading) this.loaded = state;
        return state;
      })
      .catch((error: unknown) => {
        if (this.state === loading) this.state = null;
        throw error;
      });
    this.state = loading;
    return loading;
  }

  /**
   * The cached answer to a JSON body seen before, found without parsing it and without waiting for anything;
   * undefined when caching is off, nothing is cached for it, or something must be loaded first (then the request
   * takes the normal path, which also decides every error). Token rules apply as in `execute`.
   */
  cachedAnswer(authorization: string | null | undefined, rawBody: Uint8Array): CachedGraphqlAnswer | undefined {
    if (!this.settings.enableGql || !this.settings.enableGraphQlCaching || this.cache.size === 0 || !this.loaded)
      return undefined;
    const resolution = this.tokens.resolveLoaded(authorization);
    if (!resolution || 'error' in resolution) return undefined;
    const hit = this.cache.rawBodyAnswer(resolution.schema.uid, this.loaded.catalog.primarySite.id, rawBody);
    return hit === undefined ? undefined : { status: 200, body: hit, phase: 'execution', cached: true };
  }

  /** The GraphQL schema a gql schema record gives (built once per structure version). */
  async graphqlSchemaFor(record: GqlSchemaRecord): Promise<{ schema: GraphQLSchema; scope: ElementScope }> {
    const state = await this.loadState();
    let entry = state.schemas.get(record.uid);
    if (!entry) {
      const scope = resolveScope(record.scope, state.catalog);
      entry = { schema: buildGraphqlSchema(state.catalog, scope), scope };
      state.schemas.set(record.uid, entry);
    }
    return entry;
  }

  /**
   * What another GraphQL server needs to serve this same API for one request: the GraphQL schema the
   * `Authorization` header gives and a fresh per-request context for its resolvers (the benchmark serves the
   * API through graphql-http's own handler with it, so both servers run the same schema and resolvers).
   */
  async prepareExecution(
    authorization: string | null | undefined,
  ): Promise<
    { schema: GraphQLSchema; schemaUid: string; contextValue: RequestContext } | { status: 400; error: string }
  > {
    const resolution = await this.tokens.resolve(authorization);
    if ('error' in resolution) return { status: 400, error: resolution.error };
    const state = await this.loadState();
    const { schema, scope } = await this.graphqlSchemaFor(resolution.schema);
    const siteId = state.catalog.primarySite.id;
    const contextValue = new RequestContext(
      state.engine,
      state.catalog,
      scope,
      { siteId, maxResults: this.settings.maxGraphqlResults },
      state.urls,
      this.transformer,
    );
    return { schema, schemaUid: resolution.schema.uid, contextValue };
  }

  /**
   * Runs one GraphQL request. With telemetry on, in a span named after the operation's type (`query`, `mutation`;
   * `GraphQL Operation` until the document is parsed) with `graphql.operation.type`, `graphql.operation.name` and
   * `graphql.document` (OpenTelemetry's GraphQL conventions), and the spans `graphql.parse`, `graphql.validate` and
   * `graphql.execute` under it (the database's spans under `graphql.execute`).
   */
  execute(request: GraphqlRequest): Promise<GraphqlResponse> {
    const tracer = this.tracer;
    if (tracer === undefined) return this.run(request, undefined, undefined);
    return inSpan(tracer, 'GraphQL Operation', {}, (span) => this.run(request, tracer, span));
  }

  private async run(
    request: GraphqlRequest,
    tracer: Tracer | undefined,
    operationSpan: Span | undefined,
  ): Promise<GraphqlResponse> {
    if (!this.settings.enableGql)
      return respond(404, { errors: [{ message: 'The GraphQL API is not enabled' }] }, 'disabled');
    const resolution = await this.tokens.resolve(request.authorization);
    if ('error' in resolution) return respond(400, { errors: [{ message: resolution.error }] }, 'authorization');
    const { query, variables, operationName } = request;
    if (query === undefined || query === null || (typeof query === 'string' && query.trim() === '')) {
      return respond(200, { errors: [{ message: 'No GraphQL query was supplied' }] }, 'request');
    }
    if (typeof query !== 'string')
      return respond(400, { errors: [{ message: 'The query must be a string' }] }, 'request');
    if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return respond(400, { errors: [{ message: 'The variables must be a JSON object' }] }, 'request');
    }
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return respond(400, { errors: [{ message: 'The operationName must be a string' }] }, 'request');
    }
    if (variables && nestingDepth(variables, MAX_VARIABLES_NESTING) > MAX_VARIABLES_NESTING) {
      return respond(
        400,
        { errors: [{ message: `The variables are nested more than ${MAX_VARIABLES_NESTING} levels deep` }] },
        'request',
      );
    }
    const state = await this.loadState();
    const siteId = state.catalog.primarySite.id;
    const useCache = this.settings.enableGraphQlCaching && request.useCache !== false;
    const cacheKey = useCache
      ? ResultCache.key(resolution.schema.uid, siteId, query, variables, operationName as string | undefined)
      : '';
    if (useCache) {
      const hit = this.cache.get(cacheKey);
      if (hit !== undefined) {
        if (request.rawBody !== undefined)
          this.cache.setRawBodyAnswer(resolution.schema.uid, siteId, request.rawBody, hit);
        return { status: 200, body: hit, phase: 'execution', cached: true };
      }
    }

    const document =
      tracer === undefined
        ? this.parseCached(query)
        : inSpan(tracer, 'graphql.parse', {}, (span) => {
            span.setAttribute(
              'content_graphql.cached',
              this.documents.get(query)?.maxTokens === this.settings.maxGraphqlTokens,
            );
            return this.parseCached(query);
          });
    if (!('kind' in document))
      return respond(200, { errors: document.map((error) => this.formatError(error)) }, 'parse');
    let operationAttributes: Attributes | undefined;
    if (operationSpan !== undefined) {
      operationAttributes = operationAttributesOf(document, query, operationName);
      operationSpan.setAttributes(operationAttributes);
      const type = operationAttributes['graphql.operation.type'];
      if (typeof type === 'string') operationSpan.updateName(type);
    }
    const { schema, scope } = await this.graphqlSchemaFor(resolution.schema);
    const { maxGraphqlDepth, maxGraphqlComplexity, maxGraphqlAliases, enableGraphqlIntrospection } = this.settings;
    const validationKey = `${resolution.schema.uid}\u0000${maxGraphqlDepth}:${maxGraphqlComplexity}:${maxGraphqlAliases}:${enableGraphqlIntrospection}\u0000${documentId(document)}`;
    const validateDocument = (span?: Span): readonly GraphQLError[] => {
      let errors = state.validations.get(validationKey);
      span?.setAttribute('content_graphql.cached', errors !== undefined);
      if (!errors) {
        // The limits first, in linear time: graphql-js's rules are not all linear, and must not see a hostile document.
        errors = checkQueryLimits(schema, document, {
          maxDepth: maxGraphqlDepth,
          maxComplexity: maxGraphqlComplexity,
          maxAliases: maxGraphqlAliases,
        });
        if (!errors.length) errors = validate(schema, document, this.rules());
        state.validations.set(validationKey, errors);
      }
      span?.setAttribute('content_graphql.errors', errors.length);
      return errors;
    };
    const validationErrors =
      tracer === undefined ? validateDocument() : inSpan(tracer, 'graphql.validate', {}, validateDocument);
    if (validationErrors.length)
      return respond(200, { errors: validationErrors.map((error) => this.formatError(error)) }, 'validation');

    const context = new RequestContext(
      state.engine,
      state.catalog,
      scope,
      { siteId, maxResults: this.settings.maxGraphqlResults },
      state.urls,
      this.transformer,
    );
    const run = () =>
      this.executor.run({
        schema,
        document,
        query,
        contextValue: context,
        variableValues: variables as Record<string, unknown> | null | undefined,
        operationName: operationName as string | null | undefined,
      });
    const result = await (tracer === undefined
      ? run()
      : inSpan(tracer, 'graphql.execute', operationAttributes ?? {}, (span) =>
          Promise.resolve(run()).then((answer) => {
            if (answer.errors?.length) span.setAttribute('content_graphql.errors', answer.errors.length);
            return answer;
          }),
        ));
    if (result.data === undefined && result.errors?.length) {
      return respond(200, { errors: result.errors.map((error) => this.formatError(error)) }, 'variables');
    }
    const body: Record<string, unknown> = {};
    if (result.errors?.length) body.errors = result.errors.map((error) => this.formatExecutionError(error));
    body.data = result.data ?? null;
    const json = JSON.stringify(body);
    if (useCache && !result.errors?.length) {
      await this.ensureExpiry();
      this.cache.set(cacheKey, json);
      if (request.rawBody !== undefined)
        this.cache.setRawBodyAnswer(resolution.schema.uid, siteId, request.rawBody, json);
    }
    return { status: 200, body: json, phase: 'execution', cached: false };
  }

  private rules(): ValidationRule[] {
    const rules: ValidationRule[] = [...specifiedRules];
    if (!this.settings.enableGraphqlIntrospection) rules.push(NoSchemaIntrospectionCustomRule);
    return rules;
  }

  /**
   * The type of the operation a request would run (query, mutation, subscription), or undefined when the text
   * does not parse or names no single operation; the transport refuses mutations over GET with it.
   */
  operationType(query: string, operationName: unknown): OperationTypeNode | undefined {
    const document = this.parseCached(query);
    if (!('kind' in document)) return undefined;
    return getOperationAST(document, typeof operationName === 'string' ? operationName : undefined)?.operation;
  }

  /**
   * Parsed documents, or their syntax errors, by text. Too deep a document is refused before graphql-js's
   * recursive parser sees it, which would overflow its stack.
   */
  private parseCached(query: string): DocumentNode | readonly GraphQLError[] {
    const maxTokens = this.settings.maxGraphqlTokens;
    // Keyed by the text alone (a second key built from it would be hashed again: about a microsecond for the example).
    const known = this.documents.get(query);
    if (known?.maxTokens === maxTokens) return known.document;
    let document: DocumentNode | readonly GraphQLError[];
    const tooDeep = nestingError(query);
    if (tooDeep) {
      document = [tooDeep];
    } else {
      try {
        document = parse(query, maxTokens > 0 ? { maxTokens } : undefined);
      } catch (error) {
        document = [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
      }
    }
    this.documents.set(query, { maxTokens, document });
    return document;
  }

  /**
   * With introspection off, graphql-js's "Did you mean ...?" hints would still reveal field, argument, type and
   * enum value names to a client who may not introspect them: they are cut from every message.
   */
  private formatError(error: GraphQLError): GraphQLFormattedError {
    const formatted = error.toJSON();
    if (this.settings.enableGraphqlIntrospection) return formatted;
    return { ...formatted, message: withoutSuggestions(formatted.message) };
  }

  /** Errors from bad arguments and from GraphQL itself keep their message; anything unexpected is logged and hidden unless devMode. */
  private formatExecutionError(error: GraphQLError): GraphQLFormattedError {
    const original = error.originalError;
    if (!original || original instanceof QueryArgumentError || original instanceof GraphQLError)
      return this.formatError(error);
    if (this.settings.devMode) return this.formatError(error);
    console.error('content-graphql: unexpected error while executing a query:', original);
    return { ...this.formatError(error), message: GENERIC_ERROR };
  }

  /** Cached results must not outlive the next post or expiry date that changes what `live` means. */
  private ensureExpiry(): Promise<void> {
    this.expiryChecked ??= (async () => {
      const now = new Date().toISOString();
      const [post, expiry] = await Promise.all([
        this.store.db
          .selectFrom('entries')
          .select((eb) => eb.fn.min('postDate').as('next'))
          .where('postDate', '>', now)
          .executeTakeFirst(),
        this.store.db
          .selectFrom('entries')
          .select((eb) => eb.fn.min('expiryDate').as('next'))
          .where('expiryDate', '>', now)
          .executeTakeFirst(),
      ]);
      for (const next of [post?.next, expiry?.next]) if (next) this.cache.expireAt(new Date(String(next)).getTime());
    })().catch(() => {
      this.expiryChecked = null;
    });
    return this.expiryChecked;
  }
}

/** Deeper variables than any input type of the API can take; deeper JSON would also overflow JSON.stringify's stack. */
const MAX_VARIABLES_NESTING = 32;

/** How deep a JSON value nests, counted without recursion and giving up past `stopAfter`. */
function nestingDepth(value: unknown, stopAfter: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > stopAfter) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * graphql-js appends its hints at the end of a message: ` Did you mean "a", "b", or "c"?` (also `the enum value
 * "X"` and `to use an inline fragment on "T"`), schema names in quotes, no other question mark. Found by position,
 * not by a regular expression, since messages quote client values of any length.
 */
function withoutSuggestions(message: string): string {
  if (!message.endsWith('?')) return message;
  const start = message.lastIndexOf(' Did you mean ');
  if (start === -1 || message.indexOf('?', start) !== message.length - 1) return message;
  return message.slice(0, start);
}

function respond(status: number, body: unknown, phase: GraphqlPhase): GraphqlResponse {
  return { status, body: JSON.stringify(body), phase, cached: false };
}

/**
 * `graphql.operation.type`, `graphql.operation.name` (left out for an anonymous operation) and `graphql.document` of
 * the operation a request runs (OpenTelemetry's GraphQL conventions); no type when the document names no single one.
 */
function operationAttributesOf(document: DocumentNode, query: string, operationName: unknown): Attributes {
  const attributes: Attributes = { 'graphql.document': query };
  const operation = getOperationAST(document, typeof operationName === 'string' ? operationName : undefined);
  if (operation) {
    attributes['graphql.operation.type'] = operation.operation;
    if (operation.name) attributes['graphql.operation.name'] = operation.name.value;
  } else if (typeof operationName === 'string') attributes['graphql.operation.name'] = operationName;
  return attributes;
}
