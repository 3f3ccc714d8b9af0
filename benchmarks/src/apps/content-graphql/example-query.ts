/**
 * The example entries query of docs/content-graphql.md ("Example queries"): the top-level news entries with
 * their children and a transformed featured image, the request both servers of this benchmark answer.
 * Keep it identical to the doc; `answerMatches` checks the answer a server gives against the demo content.
 */
export const EXAMPLE_QUERY = `query NewsFront($limit: Int) {
  entries(section: "news", level: 1, limit: $limit) {
    id
    title
    url
    postDate @formatDateTime(format: "Y-m-d")
    ... on news_article_Entry {
      summary
      featuredImage {
        url @transform(width: 300, height: 200, immediately: true)
        width
        height
      }
    }
    children {
      title
      url
    }
  }
}`;

export const EXAMPLE_VARIABLES = { limit: 5 };

/** The request body wrk sends (POST application/json). */
export function exampleRequestBody(): string {
  return JSON.stringify({ query: EXAMPLE_QUERY, variables: EXAMPLE_VARIABLES, operationName: 'NewsFront' });
}

/** Titles, in order, that the demo content gives for the example query (structure order of the news section). */
export const EXPECTED_TITLES = [
  'The new harbour opens',
  'City archive moves to a new database',
  'Storm warning for the weekend',
  'Harbour festival programme',
];

/** Why an answer is wrong, or null when it is the example's answer. */
export function wrongAnswer(body: unknown): string | null {
  const entries = (body as { data?: { entries?: Array<Record<string, any>> } })?.data?.entries;
  if (!Array.isArray(entries)) return `no data.entries in ${JSON.stringify(body).slice(0, 300)}`;
  const titles = entries.map((entry) => entry.title);
  if (JSON.stringify(titles) !== JSON.stringify(EXPECTED_TITLES))
    return `titles ${JSON.stringify(titles)}, expected ${JSON.stringify(EXPECTED_TITLES)}`;
  const first = entries[0]!;
  if (first.children?.length !== 2) return `the first entry has ${first.children?.length} children, expected 2`;
  const url = first.featuredImage?.[0]?.url as string | undefined;
  if (!url?.includes('/_300x200_crop_center-center_none/sunrise.jpg'))
    return `featured image URL ${url}, expected a _300x200 transform of sunrise.jpg`;
  if ((body as { errors?: unknown }).errors) return `errors: ${JSON.stringify((body as { errors?: unknown }).errors)}`;
  return null;
}
