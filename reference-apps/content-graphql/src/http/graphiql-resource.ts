import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ApiExclude, Context, GET, HttpServerResponse, Path, PathParam } from 'rest.uws';

/** The four files GraphiQL needs, served from the installed packages: no CDN. */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.production.min.js': {
    pkg: 'react',
    file: 'umd/react.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'react-dom.production.min.js': {
    pkg: 'react-dom',
    file: 'umd/react-dom.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

function page(graphqlPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Content GraphQL – GraphiQL</title>
<link rel="stylesheet" href="/graphiql/assets/graphiql.min.css">
<style>
  body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
  #toolbar { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #f3f4f6; border-bottom: 1px solid #ddd; }
  #toolbar input { flex: 1; max-width: 420px; font-family: monospace; }
  #graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<div id="toolbar">
  <label for="token">Access token</label>
  <input id="token" name="token" type="password" autocomplete="off" placeholder="empty: the public schema">
  <span id="schema-note">Requests go to <code>${graphqlPath}</code></span>
</div>
<div id="graphiql">Loading…</div>
<script src="/graphiql/assets/react.production.min.js"></script>
<script src="/graphiql/assets/react-dom.production.min.js"></script>
<script src="/graphiql/assets/graphiql.min.js"></script>
<script>
  const tokenField = document.getElementById('token');
  tokenField.value = sessionStorage.getItem('content-graphql-token') || '';
  async function fetcher(params) {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const token = tokenField.value.trim();
    if (token) headers.Authorization = 'Bearer ' + token;
    const response = await fetch(${JSON.stringify(graphqlPath)}, { method: 'POST', headers, body: JSON.stringify(params) });
    return response.json();
  }
  function render() {
    const root = window.__graphiqlRoot || (window.__graphiqlRoot = ReactDOM.createRoot(document.getElementById('graphiql')));
    // A new key makes GraphiQL fetch the schema again for the new token.
    const initial = new URLSearchParams(location.search).get('query');
    root.render(React.createElement(GraphiQL, { fetcher, key: tokenField.value, defaultQuery: '{\\n  ping\\n}\\n', ...(initial ? { query: initial } : {}) }));
  }
  tokenField.addEventListener('change', () => { sessionStorage.setItem('content-graphql-token', tokenField.value); render(); });
  render();
</script>
</body>
</html>`;
}

/**
 * GraphiQL at `/graphiql`, with a token field whose value is sent as `Authorization: Bearer <token>`. A page and
 * its files, not operations of the API: left out of the OpenAPI document (as Swagger UI is).
 */
export function graphiqlResource(graphqlPath: string): object {
  const html = page(graphqlPath);
  @ApiExclude
  class GraphiqlResource {
    @GET
    @Path('/graphiql')
    page(@Context() res: HttpServerResponse): void {
      res.setStatusCode(200).putHeader('Content-Type', 'text/html; charset=utf-8').end(html);
    }

    @GET
    @Path('/graphiql/assets/{name}')
    async asset(@PathParam('name') name: string, @Context() res: HttpServerResponse): Promise<void> {
      await Promise.resolve();
      const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!asset) {
        res
          .setStatusCode(404)
          .putHeader('Content-Type', 'application/json; charset=utf-8')
          .end(JSON.stringify({ error: `No GraphiQL asset "${name}"` }));
        return;
      }
      const data = await readFile(packageFile(asset.pkg, asset.file));
      res
        .setStatusCode(200)
        .putHeader('Content-Type', asset.type)
        .putHeader('Cache-Control', 'public, max-age=86400')
        .end(data);
    }
  }
  return new GraphiqlResource();
}
