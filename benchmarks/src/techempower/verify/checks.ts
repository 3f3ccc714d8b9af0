/**
 * The checks of the six test types, after TechEmpower's verifier (toolset/test_types): headers (Server, a current
 * Date, Content-Type, a length), bodies, the `queries` clamping cases, the rows checked against the database, updates
 * read back, and the statements counted (each row by a query of its own; the fortunes read, not cached).
 */
import { ScenarioCheckError } from '../../scenarios/scenario';
import { HELLO_MESSAGE, MAX_QUERIES, PATHS, WORLD_ROWS } from '../contract';
import { fortunesPageProblem } from './fortunes-page';
import { get, getPipelined, type RawResponse } from './raw-http';
import type { StatementCounts, VerifierDatabase } from './verifier-database';

/** The Accept headers TechEmpower's load sends. */
export const ACCEPT = {
  json: 'application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7',
  html: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  plaintext: 'text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7',
} as const;

type Kind = keyof typeof ACCEPT;

const CONTENT_TYPES: Record<Kind, RegExp> = {
  json: /^application\/json(; ?charset=utf-8)?$/i,
  html: /^text\/html; ?charset=utf-8$/i,
  plaintext: /^text\/plain(; ?charset=utf-8)?$/i,
};

const IMF_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** How far a Date header may be from this clock (a loaded machine answers late). */
const DATE_SLACK_MS = 5_000;

function fail(type: string, what: string, expected: unknown, received: unknown): never {
  throw new ScenarioCheckError(type, what, expected, received);
}

/** What every answer of every type must carry. */
export function checkHeaders(type: string, what: string, response: RawResponse, kind: Kind): void {
  if (response.status !== 200)
    fail(type, `${what} status`, 200, `${response.status} ${response.body.toString('utf8', 0, 200)}`);
  const { headers } = response;
  if (!headers.server) fail(type, `${what} Server header`, 'present', headers.server);
  const date = headers.date;
  if (!date || !IMF_DATE.test(date)) fail(type, `${what} Date header`, 'an IMF-fixdate (RFC 9110)', date);
  if (Math.abs(Date.parse(date) - Date.now()) > DATE_SLACK_MS)
    fail(type, `${what} Date header`, `within ${DATE_SLACK_MS / 1000} s of ${new Date().toUTCString()}`, date);
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
    fail(type, `${what} length`, 'Content-Length or Transfer-Encoding', 'neither');
  if (!CONTENT_TYPES[kind].test(headers['content-type'] ?? ''))
    fail(type, `${what} Content-Type`, String(CONTENT_TYPES[kind]), headers['content-type']);
  if (headers['content-encoding']) fail(type, `${what} Content-Encoding`, 'none', headers['content-encoding']);
}

function parseJson(type: string, what: string, response: RawResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return fail(type, `${what} body`, 'JSON', response.body.toString('utf8', 0, 200));
  }
}

function isWorldNumber(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= WORLD_ROWS;
}

/** An object with exactly `id` and `randomNumber`, both integers 1..10,000. */
function checkWorld(type: string, what: string, value: unknown): { id: number; randomNumber: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(type, `${what}`, 'a JSON object {"id","randomNumber"}', value);
  const keys = Object.keys(value).sort();
  if (keys.join() !== 'id,randomNumber') fail(type, `${what} keys`, ['id', 'randomNumber'], keys);
  const world = value as { id: unknown; randomNumber: unknown };
  if (!isWorldNumber(world.id)) fail(type, `${what} id`, `an integer 1..${WORLD_ROWS}`, world.id);
  if (!isWorldNumber(world.randomNumber))
    fail(type, `${what} randomNumber`, `an integer 1..${WORLD_ROWS}`, world.randomNumber);
  return world as { id: number; randomNumber: number };
}

function checkWorldList(type: string, what: string, response: RawResponse, length: number) {
  checkHeaders(type, what, response, 'json');
  const body = parseJson(type, what, response);
  if (!Array.isArray(body)) fail(type, `${what} body`, `a JSON array of ${length} worlds`, body);
  if (body.length !== length) fail(type, `${what} array length`, length, body.length);
  return body.map((item, index) => checkWorld(type, `${what} [${index}]`, item));
}

/** The `queries` values the rules' verifier tries, with the count each must give; and one that is not even there. */
export const QUERIES_CASES: ReadonlyArray<[string | undefined, number]> = [
  ['2', 2],
  ['0', 1],
  ['foo', 1],
  ['501', MAX_QUERIES],
  ['', 1],
  [undefined, 1],
  ['-3', 1],
  ['20', 20],
];

export function queriesUrl(baseUrl: string, path: string, value: string | undefined): string {
  return value === undefined ? `${baseUrl}${path}` : `${baseUrl}${path}?queries=${value}`;
}

/** Each world answered matches the stored row (read-only types). */
function checkAgainstStore(
  type: string,
  what: string,
  worlds: { id: number; randomNumber: number }[],
  stored: Map<number, number>,
) {
  for (const world of worlds)
    if (stored.get(world.id) !== world.randomNumber)
      fail(type, `${what} world ${world.id}`, `randomNumber ${stored.get(world.id)} as stored`, world.randomNumber);
}

/** Sends `requests` requests while pg_stat_statements counts what they ran. */
async function countStatements(
  database: VerifierDatabase,
  requests: number,
  send: () => Promise<void>,
): Promise<StatementCounts> {
  await database.resetCounts();
  for (let index = 0; index < requests; index++) await send();
  return database.counts();
}

function expectCount(type: string, what: string, counted: number, expected: number, atMost = expected): void {
  if (counted < expected || counted > atMost)
    fail(type, what, atMost === expected ? expected : `${expected}..${atMost}`, counted);
}

export async function checkJson(baseUrl: string): Promise<void> {
  const response = await get(`${baseUrl}${PATHS.json}`, ACCEPT.json);
  checkHeaders('json', `GET ${PATHS.json}`, response, 'json');
  const body = parseJson('json', `GET ${PATHS.json}`, response);
  if (JSON.stringify(body) !== JSON.stringify({ message: HELLO_MESSAGE }))
    fail('json', `GET ${PATHS.json} body`, { message: HELLO_MESSAGE }, body);
}

export async function checkDb(baseUrl: string, database: VerifierDatabase): Promise<void> {
  const what = `GET ${PATHS.db}`;
  const stored = await database.worlds();
  for (let index = 0; index < 3; index++) {
    const response = await get(`${baseUrl}${PATHS.db}`, ACCEPT.json);
    checkHeaders('db', what, response, 'json');
    checkAgainstStore('db', what, [checkWorld('db', `${what} body`, parseJson('db', what, response))], stored);
  }
  const requests = 10;
  const counts = await countStatements(
    database,
    requests,
    async () => void (await get(`${baseUrl}${PATHS.db}`, ACCEPT.json)),
  );
  expectCount('db', `SELECTs of world for ${requests} requests`, counts.worldSelects, requests);
  expectCount('db', `world rows read for ${requests} requests`, counts.worldRows, requests);
}

export async function checkQueries(baseUrl: string, database: VerifierDatabase): Promise<void> {
  const stored = await database.worlds();
  for (const [value, length] of QUERIES_CASES) {
    const url = queriesUrl(baseUrl, PATHS.queries, value);
    const worlds = checkWorldList('queries', `GET ${url.slice(baseUrl.length)}`, await get(url, ACCEPT.json), length);
    checkAgainstStore('queries', `GET ${url.slice(baseUrl.length)}`, worlds, stored);
  }
  const requests = 5;
  const queries = 20;
  const url = queriesUrl(baseUrl, PATHS.queries, String(queries));
  const counts = await countStatements(database, requests, async () => void (await get(url, ACCEPT.json)));
  // One SELECT per row: an `IN (...)` or a cache would count fewer.
  expectCount(
    'queries',
    `SELECTs of world for ${requests} requests of ${queries}`,
    counts.worldSelects,
    requests * queries,
  );
  expectCount(
    'queries',
    `world rows read for ${requests} requests of ${queries}`,
    counts.worldRows,
    requests * queries,
  );
}

export async function checkFortunes(baseUrl: string, database: VerifierDatabase): Promise<void> {
  const what = `GET ${PATHS.fortunes}`;
  const response = await get(`${baseUrl}${PATHS.fortunes}`, ACCEPT.html);
  checkHeaders('fortunes', what, response, 'html');
  const html = response.body.toString('utf8');
  if (!Buffer.from(html, 'utf8').equals(response.body)) fail('fortunes', `${what} body`, 'UTF-8', 'invalid UTF-8');
  const problem = fortunesPageProblem(html);
  if (problem) fail('fortunes', `${what} page`, "the rules' page", problem);
  const requests = 5;
  const counts = await countStatements(
    database,
    requests,
    async () => void (await get(`${baseUrl}${PATHS.fortunes}`, ACCEPT.html)),
  );
  expectCount('fortunes', `SELECTs of fortune for ${requests} requests`, counts.fortuneSelects, requests);
  expectCount('fortunes', `fortune rows read for ${requests} requests`, counts.fortuneRows, requests * 12);
}

/** Every world answered is what the table holds now (a duplicate id holds one of the values answered for it). */
function checkWrittenBack(what: string, worlds: { id: number; randomNumber: number }[], after: Map<number, number>) {
  const answered = new Map<number, Set<number>>();
  for (const world of worlds) answered.set(world.id, (answered.get(world.id) ?? new Set()).add(world.randomNumber));
  for (const [id, values] of answered)
    if (!values.has(after.get(id)!))
      fail(
        'updates',
        `${what} world ${id} read back`,
        `randomNumber ${[...values].join(' or ')} (as answered)`,
        after.get(id),
      );
  return answered;
}

export async function checkUpdates(baseUrl: string, database: VerifierDatabase): Promise<void> {
  for (const [value, length] of QUERIES_CASES) {
    const url = queriesUrl(baseUrl, PATHS.updates, value);
    const what = `GET ${url.slice(baseUrl.length)}`;
    const before = length === MAX_QUERIES ? await database.worlds() : undefined;
    const worlds = checkWorldList('updates', what, await get(url, ACCEPT.json), length);
    const after = await database.worlds();
    const answered = checkWrittenBack(what, worlds, after);
    if (before) {
      // A new number can equal the old one (1 in 10,000); nearly all must have changed.
      const changed = [...answered.keys()].filter((id) => before.get(id) !== after.get(id)).length;
      if (changed < answered.size * 0.9)
        fail(
          'updates',
          `${what}: rows changed in the table`,
          `>= ${Math.ceil(answered.size * 0.9)} of ${answered.size}`,
          changed,
        );
    }
  }
  const requests = 5;
  const queries = 20;
  const url = queriesUrl(baseUrl, PATHS.updates, String(queries));
  let distinct = 0;
  const counts = await countStatements(database, requests, async () => {
    const response = await get(url, ACCEPT.json);
    distinct += new Set(
      checkWorldList('updates', `GET ${url.slice(baseUrl.length)}`, response, queries).map((w) => w.id),
    ).size;
  });
  const rows = requests * queries;
  expectCount('updates', `SELECTs of world for ${requests} requests of ${queries}`, counts.worldSelects, rows);
  // Batched (one UPDATE a request) or one a row; never none.
  expectCount(
    'updates',
    `UPDATEs of world for ${requests} requests of ${queries}`,
    counts.worldUpdates,
    requests,
    rows,
  );
  expectCount(
    'updates',
    `world rows updated for ${requests} requests of ${queries}`,
    counts.updatedRows,
    distinct,
    rows,
  );
}

/**
 * The Date of two answers two seconds apart differs: the server does not keep the one it started with. (A server may
 * renew its Date once a second on a timer of its own, as uWebSockets.js does, so one second is not enough.)
 */
async function checkDateMoves(baseUrl: string): Promise<void> {
  const first = (await get(`${baseUrl}${PATHS.plaintext}`, ACCEPT.plaintext)).headers.date;
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const second = (await get(`${baseUrl}${PATHS.plaintext}`, ACCEPT.plaintext)).headers.date;
  if (first === second) fail('plaintext', 'Date header a second later', `later than ${first}`, second);
}

export async function checkPlaintext(baseUrl: string): Promise<void> {
  const what = `GET ${PATHS.plaintext}`;
  const response = await get(`${baseUrl}${PATHS.plaintext}`, ACCEPT.plaintext);
  checkHeaders('plaintext', what, response, 'plaintext');
  if (response.body.toString('utf8') !== HELLO_MESSAGE)
    fail('plaintext', `${what} body`, HELLO_MESSAGE, response.body.toString('utf8', 0, 200));
  const pipelined = await getPipelined(baseUrl, PATHS.plaintext, 16);
  pipelined.forEach((answer, index) => {
    if (answer.status !== 200 || answer.body.toString('utf8') !== HELLO_MESSAGE)
      fail(
        'plaintext',
        `pipelined answer ${index + 1} of 16`,
        `200 ${HELLO_MESSAGE}`,
        `${answer.status} ${answer.body.toString('utf8', 0, 100)}`,
      );
  });
  await checkDateMoves(baseUrl);
}
