/**
 * The same API served by graphql-http's own Node handler (`graphql-http/lib/use/http`) on `node:http`: the same
 * database, the same per-token GraphQL schema and the same resolvers and per-request context (from the app's
 * `GraphqlService.prepareExecution`), one process. graphql-http parses and validates every request, as it ships.
 * With caching on, it gets the same result cache the app has, wired the way graphql-http documents it:
 * `onSubscribe` answers a hit with the stored ExecutionResult, `onOperation` stores results without errors.
 */
import * as http from 'node:http';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { openDatabase } from 'app-support';
import { createContentService, ResultCache, type ContentDB, type RequestContext } from 'content-graphql';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';
import { BENCH_PUBLIC_URL, readBenchServerSettings } from './server-settings';

const GRAPHQL_PATH = '/api';

// graphql-http types its context as a record; the app's RequestContext is a class instance, passed through untouched.
type ContextValue = RequestContext & Record<PropertyKey, unknown>;

async function main(): Promise<void> {
  const settings = readBenchServerSettings();
  const started = now();
  const database = await openDatabase<ContentDB>(settings.databaseUrl);
  const service = await createContentService({
    db: database.db,
    dialect: database.dialect,
    assetsRoot: settings.assetsRoot,
    settings: { enableGraphQlCaching: false, changePollMs: 0, publicUrl: BENCH_PUBLIC_URL },
  });
  const schemaOfContext = new WeakMap<RequestContext, GraphQLSchema>();
  const cache = new Map<string, ExecutionResult>();
  const cacheKeyOfRequest = new WeakMap<object, string>();
  const siteId = (await service.store.catalog()).primarySite.id;
  const authorization = (req: http.IncomingMessage) => req.headers.authorization ?? null;

  const handler = createHandler<ContextValue>({
    context: async (req) => {
      const prepared = await service.graphql.prepareExecution(authorization(req.raw));
      if ('error' in prepared)
        return [
          JSON.stringify({ errors: [{ message: prepared.error }] }),
          { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } },
        ];
      schemaOfContext.set(prepared.contextValue, prepared.schema);
      return prepared.contextValue as ContextValue;
    },
    schema: (_req, args) => schemaOfContext.get(args.contextValue!)!,
    onSubscribe: settings.caching
      ? async (req, params) => {
          const resolution = await service.graphql.tokens.resolve(authorization(req.raw));
          if ('error' in resolution) return undefined;
          const key = ResultCache.key(
            resolution.schema.uid,
            siteId,
            params.query,
            params.variables ?? undefined,
            params.operationName ?? undefined,
          );
          cacheKeyOfRequest.set(req, key);
          return cache.get(key);
        }
      : undefined,
    onOperation: settings.caching
      ? (req, _args, result) => {
          const key = cacheKeyOfRequest.get(req);
          if (key !== undefined && !(result as ExecutionResult).errors?.length)
            cache.set(key, result as ExecutionResult);
          return undefined;
        }
      : undefined,
  });

  const server = http.createServer((req, res) => {
    if (req.url?.split('?')[0] !== GRAPHQL_PATH) {
      res.writeHead(404).end();
      return;
    }
    handler(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(requestedPort(), HOST, resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  exitOnSignals(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
    await database.destroy();
  });
  announceReady({ port, bootMs: now() - started });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
