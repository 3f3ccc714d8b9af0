/**
 * The site's navigation: the reader's path (guide, reference, apps, measurements) in a fixed order, and every other
 * page of docs/ added to the group its folder belongs to, so a page nobody listed is never orphaned. The browser test
 * (site/test/site-browser.test.ts) checks that every page of docs/ is in the sidebar.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DefaultTheme } from 'vitepress';

interface Group {
  text: string;
  /** Pages in reading order, relative to docs/ without `.md`. */
  pages: string[];
  /** Unlisted pages under these folders (or at the top level, for '') join this group, by title. */
  folders?: string[];
}

const GROUPS: Group[] = [
  {
    text: 'Guide',
    pages: [
      'index',
      'getting-started',
      'concepts',
      'architecture',
      'reference/testing',
      'deployment',
      'platforms',
      'migrating-from-rest-vertx-and-jax-rs',
      'versioning',
    ],
    folders: [''],
  },
  {
    text: 'Reference: decorators',
    pages: [
      'reference/routing',
      'reference/arguments',
      'reference/context',
      'reference/responses-and-errors',
      'reference/validation-and-injection',
      'reference/compiled-validation',
      'reference/security',
      'reference/events',
      'reference/websockets',
      'reference/server-sent-events',
      'reference/static-files-and-uploads',
      'reference/serving-and-shutdown',
      'reference/error-codes',
    ],
    folders: ['reference'],
  },
  {
    text: 'Reference: plugins',
    pages: [
      'reference/plugins',
      'reference/request-id-and-logging',
      'reference/health',
      'reference/observability',
      'reference/openapi',
      'reference/asyncapi',
      'reference/typed-client',
      'reference/swagger-ui',
      'reference/cors',
      'reference/proxies',
      'reference/cookies',
      'reference/problem-details',
      'reference/rate-limiting',
      'reference/compression',
    ],
    folders: ['reference/plugins'],
  },
  {
    text: 'Reference apps',
    pages: [
      'booking-api',
      'booking-api-walk-through',
      'content-graphql',
      'content-graphql-performance',
      'content-graphql-scale-out',
      'voice-stream/index',
      'voice-stream/protocol',
      'voice-stream/configuration',
      'voice-stream/glossaries',
      'voice-stream/recognition',
      'voice-stream/operations',
    ],
    folders: ['booking-api', 'content-graphql', 'voice-stream'],
  },
  {
    text: 'Benchmarks',
    pages: [
      'benchmarks/index',
      'benchmarks/running',
      'benchmarks/method',
      'benchmarks/results',
      'benchmarks/techempower',
      'benchmarks/costs',
      'benchmarks/request-path',
      'benchmarks/apps',
    ],
    folders: ['benchmarks'],
  },
  {
    text: 'Security and reliability',
    pages: ['security', 'reliability/index', 'reliability/hostile-input', 'reliability/long-load'],
    folders: ['reliability'],
  },
  { text: 'API', pages: ['api-reference'] },
];

const DOCS = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Every page of docs/, relative to it without `.md` (the TypeDoc output and VitePress's own folders left out). */
export function allPages(dir = DOCS, prefix = ''): string[] {
  const pages: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'public' || entry.name === 'api' || entry.name === 'node_modules')
      continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) pages.push(...allPages(path.join(dir, entry.name), relative));
    else if (entry.name.endsWith('.md')) pages.push(relative.slice(0, -'.md'.length));
  }
  return pages.sort();
}

/** Shorter sidebar labels than the pages' headings, where the heading is long. */
const LABELS: Record<string, string> = {
  index: 'Introduction',
  concepts: 'Concepts',
  architecture: 'Architecture',
  deployment: 'Deployment',
  'migrating-from-rest-vertx-and-jax-rs': 'Migrating from JAX-RS',
  'booking-api': 'Booking API',
  'content-graphql': 'Content GraphQL',
  'booking-api-walk-through': 'Booking: walk-through',
  'content-graphql-performance': 'Content GraphQL: performance',
  'content-graphql-scale-out': 'Content GraphQL: scale-out',
  'voice-stream/index': 'Voice stream',
  'voice-stream/protocol': 'Voice: protocol',
  'voice-stream/configuration': 'Voice: configuration',
  'voice-stream/glossaries': 'Voice: glossaries',
  'voice-stream/recognition': 'Voice: recognition',
  'voice-stream/operations': 'Voice: operations',
  'benchmarks/index': 'Overview',
  'benchmarks/techempower': 'TechEmpower test types',
  'reliability/index': 'Reliability: faults',
  'reliability/hostile-input': 'Reliability: hostile input',
  'reliability/long-load': 'Reliability: long load',
  'reference/serving-and-shutdown': 'Serving and shutdown',
  'reference/security': 'Security (authentication)',
  'reference/validation-and-injection': 'Validation and injection',
  'reference/responses-and-errors': 'Responses and errors',
  'reference/request-id-and-logging': 'Request ids and logging',
  'api-reference': 'API reference (TypeDoc)',
};

/** The page's sidebar label: its entry in LABELS, else its first heading (the file name when it has none). */
function titleOf(page: string): string {
  if (LABELS[page]) return LABELS[page];
  const text = fs.readFileSync(path.join(DOCS, `${page}.md`), 'utf8');
  const frontTitle = /^---\n[\s\S]*?\ntitle:\s*(.+)\n[\s\S]*?---/.exec(text)?.[1];
  const heading = /^# (.+)$/m.exec(text)?.[1];
  return (frontTitle ?? heading ?? path.basename(page)).replace(/`/g, '').trim();
}

function link(page: string): string {
  return `/${page.replace(/(^|\/)index$/, '$1')}`;
}

/** The group a page nobody listed joins: the deepest folder named by a group, else the guide. */
function groupOf(page: string): Group {
  const folder = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '';
  let best: Group = GROUPS[0];
  let bestDepth = -1;
  for (const group of GROUPS) {
    for (const candidate of group.folders ?? []) {
      const fits = candidate === '' ? true : folder === candidate || folder.startsWith(`${candidate}/`);
      const depth = candidate === '' ? 0 : candidate.split('/').length;
      if (fits && depth > bestDepth) {
        best = group;
        bestDepth = depth;
      }
    }
  }
  return best;
}

export function sidebar(): DefaultTheme.SidebarItem[] {
  const existing = new Set(allPages());
  const listed = new Set(GROUPS.flatMap((group) => group.pages));
  const extra = new Map<Group, string[]>();
  for (const page of existing) {
    if (listed.has(page)) continue;
    const group = groupOf(page);
    extra.set(group, [...(extra.get(group) ?? []), page]);
  }
  return GROUPS.map((group) => {
    const pages = group.pages.filter((page) => existing.has(page));
    const more = (extra.get(group) ?? []).sort((a, b) => titleOf(a).localeCompare(titleOf(b)));
    return {
      text: group.text,
      collapsed: false,
      items: [...pages, ...more].map((page) => ({ text: titleOf(page), link: link(page) })),
    };
  }).filter((group) => group.items.length > 0);
}

export const nav: DefaultTheme.NavItem[] = [
  {
    text: 'Guide',
    link: '/getting-started',
    activeMatch: '^/(getting-started|concepts|architecture|deployment|platforms|versioning|migrating)',
  },
  { text: 'Reference', link: '/reference/routing', activeMatch: '^/reference/' },
  { text: 'Reference apps', link: '/booking-api', activeMatch: '^/(booking-api|content-graphql|voice-stream)' },
  { text: 'Benchmarks', link: '/benchmarks/', activeMatch: '^/benchmarks/' },
  { text: 'Security', link: '/security', activeMatch: '^/(security|reliability)' },
  { text: 'API', link: '/api-reference' },
];
