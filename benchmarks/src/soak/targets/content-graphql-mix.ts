/**
 * The content GraphQL soak mix: the docs' example entries query and other typical front-end queries of the demo
 * content, through all three request forms (POST JSON, GET ?query=, POST application/graphql), from the public
 * schema (no token) and from a private one (a token made with the app's access CLI), served from the result
 * cache and with the cache bypassed (`X-Craft-Gql-Cache: no-cache`), plus a transformed image file.
 * Every answer must be 200 with `data` and without `errors`.
 */
import { EXAMPLE_QUERY, EXAMPLE_VARIABLES } from '../../apps/content-graphql/example-query';
import type { MixRequest } from '../mix-file';

export const GRAPHQL_PATH = '/api';

const SEARCH_QUERY = '{ entries(search: "harbour", limit: 5) { title url searchScore } }';
const CATEGORIES_QUERY = '{ categories(group: "topics", level: 1) { title url children { title url } } }';
const GLOBALS_AND_BLOG_QUERY = `{
  globalSet(handle: "siteInfo") { ... on siteInfo_GlobalSet { tagline footerText @markdown } }
  entries(section: "blog") { title postDate @formatDateTime(format: "j F Y") ... on blog_post_Entry { body @markdown tags { title } } }
}`;
const ABOUT_QUERY =
  '{ entry(section: "about") { title url ... on about_about_Entry { body @markdown(flavor: "gfm") } } }';
/** Only the private schema reads users and the documents volume. */
const PRIVATE_QUERY = `{
  users { username fullName photo { url @transform(width: 64, height: 64) } }
  assets(volume: "documents") { filename size url }
}`;

function postJson(query: string, variables?: object, operationName?: string): string {
  return JSON.stringify({ query, variables, operationName });
}

/** The mix; `assetPath` is the transformed image the example query points to. */
export function contentGraphqlMix(privateToken: string, assetPath: string): MixRequest[] {
  const json = { 'Content-Type': 'application/json' };
  const bypass = { 'X-Craft-Gql-Cache': 'no-cache' };
  const privately = { Authorization: `Bearer ${privateToken}` };
  const example = postJson(EXAMPLE_QUERY, EXAMPLE_VARIABLES, 'NewsFront');
  const graphqlAnswer = (mustContain: string) => ({ status: 200, mustContain, mustNotContain: '"errors"' });
  return [
    {
      kind: 'example',
      weight: 22,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: json,
      body: example,
      ...graphqlAnswer('The new harbour opens'),
    },
    {
      kind: 'example-no-cache',
      weight: 8,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: { ...json, ...bypass },
      body: example,
      ...graphqlAnswer('The new harbour opens'),
    },
    {
      kind: 'search-get',
      weight: 10,
      method: 'GET',
      path: `${GRAPHQL_PATH}?query=${encodeURIComponent(SEARCH_QUERY)}`,
      headers: {},
      ...graphqlAnswer('"searchScore"'),
    },
    {
      kind: 'categories',
      weight: 8,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: json,
      body: postJson(CATEGORIES_QUERY),
      ...graphqlAnswer('"Databases"'),
    },
    {
      kind: 'globals-blog',
      weight: 7,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: json,
      body: postJson(GLOBALS_AND_BLOG_QUERY),
      ...graphqlAnswer('News from the harbour'),
    },
    {
      kind: 'about-raw',
      weight: 8,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: { 'Content-Type': 'application/graphql' },
      body: ABOUT_QUERY,
      ...graphqlAnswer('About us'),
    },
    {
      kind: 'private',
      weight: 12,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: { ...json, ...privately },
      body: postJson(PRIVATE_QUERY),
      ...graphqlAnswer('annual-report.txt'),
    },
    {
      kind: 'private-no-cache',
      weight: 5,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: { ...json, ...privately, ...bypass },
      body: postJson(PRIVATE_QUERY),
      ...graphqlAnswer('annual-report.txt'),
    },
    {
      kind: 'private-example',
      weight: 10,
      method: 'POST',
      path: GRAPHQL_PATH,
      headers: { ...json, ...privately },
      body: example,
      ...graphqlAnswer('The new harbour opens'),
    },
    {
      kind: 'ping',
      weight: 5,
      method: 'GET',
      path: `${GRAPHQL_PATH}?query=${encodeURIComponent('{ping}')}`,
      headers: {},
      ...graphqlAnswer('"pong"'),
    },
    { kind: 'image', weight: 5, method: 'GET', path: assetPath, headers: {}, status: 200 },
  ];
}
