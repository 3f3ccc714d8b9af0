/**
 * The documentation site: VitePress over docs/ (`npm run docs:dev`, `npm run docs:build`). Everything it serves is
 * built here: local search, the default theme's own fonts, the benchmark charts imported from benchmarks/charts, and
 * the TypeDoc API reference (`npm run docs -w rest.uws` writes site/dist/api: the build copies it into the site, the
 * dev server serves it at /api/). Nothing is fetched from the network when it is built or viewed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitepress';
import { nav, sidebar } from './navigation.mjs';
import { repositoryLinks } from './repository-links.mjs';

const REPOSITORY = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const API = path.join(REPOSITORY, 'site', 'dist', 'api');

/** `npm run docs:dev`: the TypeDoc output at /api/, as the built site has it (the build copies the folder). */
const apiReference: Plugin = {
  name: 'rest-uws-api-reference',
  configureServer(server) {
    server.middlewares.use('/api', (request, response, next) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const file = path.resolve(API, `.${decodeURIComponent(url.pathname)}`);
      const target = file.endsWith(path.sep) || url.pathname === '/' ? path.join(file, 'index.html') : file;
      if (!target.startsWith(API + path.sep) || !fs.existsSync(target) || !fs.statSync(target).isFile()) return next();
      const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
      response.setHeader('content-type', types[path.extname(target)] ?? 'application/octet-stream');
      fs.createReadStream(target).pipe(response);
    });
  },
};

export default defineConfig({
  title: 'rest.uws',
  description: 'Decorator routing for uWebSockets.js: JAX-RS style REST classes in TypeScript',
  lang: 'en-US',
  head: [['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]],
  srcExclude: ['public/**'],
  outDir: path.join(REPOSITORY, 'site', 'dist', 'site'),
  cacheDir: path.join(REPOSITORY, 'site', 'dist', 'cache'),
  appearance: true,
  lastUpdated: false,
  markdown: {
    theme: { light: 'github-light', dark: 'github-dark' },
    config: (md) => repositoryLinks(md, path.join(REPOSITORY, 'docs'), REPOSITORY),
  },
  themeConfig: {
    nav,
    sidebar: sidebar(),
    outline: { level: [2, 3] },
    search: { provider: 'local' },
    footer: { message: 'Apache-2.0. Built from docs/ with VitePress; works offline.' },
  },
  vite: {
    plugins: [apiReference],
    // The charts are imported from benchmarks/charts, outside docs/.
    server: { fs: { allow: [REPOSITORY] } },
  },
});
