/**
 * The documentation site: VitePress over docs/ (`npm run docs:dev`, `npm run docs:build`). Everything it serves is
 * built here: local search, the default theme's own fonts, the benchmark charts imported from benchmarks/charts, and
 * the TypeDoc API reference written into docs/public/api by `npm run docs -w rest.uws`. Nothing is fetched from the
 * network when it is built or viewed.
 */
import * as path from 'node:path';
import { defineConfig } from 'vitepress';
import { nav, sidebar } from './navigation.mjs';
import { repositoryLinks } from './repository-links.mjs';

const REPOSITORY = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export default defineConfig({
  title: 'rest.uws',
  description: 'Decorator routing for uWebSockets.js: JAX-RS style REST classes in TypeScript',
  lang: 'en-US',
  head: [['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]],
  // The TypeDoc output is static files in public/api; the notebook of past runs lives outside docs/.
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
    // The charts are imported from benchmarks/charts, outside docs/.
    server: { fs: { allow: [REPOSITORY] } },
  },
});
