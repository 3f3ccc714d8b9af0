/**
 * A TechEmpower implementation that is wrong on purpose, in one way chosen by TFB_BROKEN, to show that the verifier
 * refuses it: raw uWebSockets.js with the shared data layer, right in everything but the one fault.
 */
import uWS, { type HttpRequest, type HttpResponse } from 'uWebSockets.js';
import {
  EXTRA_FORTUNE_MESSAGE,
  HELLO_MESSAGE,
  PATHS,
  clampQueries,
  randomWorldNumber,
  type Fortune,
  type World,
} from '../../src/techempower/contract';
import { HTML_CONTENT_TYPE, byMessage, escapeHtml, renderFortunes } from '../../src/techempower/support/fortunes-html';
import { storeFromEnvironment } from '../../src/techempower/support/world-store';
import { listenAndAnnounce } from '../../src/servers/support/server-environment';

export const FAULTS = [
  'unsorted-fortunes',
  'unescaped-fortunes',
  'no-extra-fortune',
  'clamping',
  'no-server-header',
  'fake-updates',
  'one-query-for-all',
  'cached-fortunes',
] as const;
export type Fault = (typeof FAULTS)[number];

const fault = process.env.TFB_BROKEN as Fault;
if (!FAULTS.includes(fault)) throw new Error(`TFB_BROKEN must be one of ${FAULTS.join(', ')}`);
const store = storeFromEnvironment();
const app = uWS.App();

function page(fortunes: Fortune[], escapeText: (text: string) => string): string {
  const rows = fortunes.map((f) => `<tr><td>${f.id}</td><td>${escapeText(f.message)}</td></tr>`).join('');
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${rows}</table></body></html>`;
}

let cachedFortunes: Fortune[] | undefined;
async function fortunesPage(): Promise<string> {
  if (fault === 'cached-fortunes') return renderFortunes((cachedFortunes ??= await store.fortunes()));
  const rows = [...(await store.fortunes())];
  if (fault !== 'no-extra-fortune') rows.push({ id: 0, message: EXTRA_FORTUNE_MESSAGE });
  if (fault !== 'unsorted-fortunes') rows.sort(byMessage);
  return page(rows, fault === 'unescaped-fortunes' ? (text) => text : escapeHtml);
}

/** The clamping fault: no upper bound, and anything under 1 taken as 0. */
function count(request: HttpRequest): number {
  if (fault !== 'clamping') return clampQueries(request.getQuery('queries'));
  const value = Number.parseInt(request.getQuery('queries') ?? '', 10);
  return Number.isNaN(value) ? 1 : Math.max(0, value);
}

async function worlds(n: number): Promise<World[]> {
  if (fault === 'one-query-for-all') {
    // One read answered n times: fewer queries than rows.
    const world = await store.find(randomWorldNumber());
    return Array.from({ length: n }, () => ({ ...world }));
  }
  return Promise.all(Array.from({ length: n }, () => store.find(randomWorldNumber())));
}

function route(path: string, contentType: string, produce: (request: HttpRequest) => Promise<string>) {
  app.get(path, (response: HttpResponse, request: HttpRequest) => {
    let aborted = false;
    response.onAborted(() => {
      aborted = true;
    });
    produce(request).then(
      (body) => {
        if (aborted) return;
        response.cork(() => {
          if (fault !== 'no-server-header') response.writeHeader('Server', 'broken');
          response.writeHeader('Content-Type', contentType).end(body);
        });
      },
      () => aborted || response.cork(() => response.writeStatus('500 Internal Server Error').end()),
    );
  });
}

route(PATHS.json, 'application/json', async () => JSON.stringify({ message: HELLO_MESSAGE }));
route(PATHS.plaintext, 'text/plain', async () => HELLO_MESSAGE);
route(PATHS.db, 'application/json', async () => JSON.stringify(await store.find(randomWorldNumber())));
route(PATHS.queries, 'application/json', async (request) => JSON.stringify(await worlds(count(request))));
route(PATHS.fortunes, HTML_CONTENT_TYPE, fortunesPage);
route(PATHS.updates, 'application/json', async (request) => {
  const found = await worlds(count(request));
  for (const world of found) world.randomNumber = randomWorldNumber();
  if (fault !== 'fake-updates') await store.update(found);
  return JSON.stringify(found);
});

listenAndAnnounce(app, 'broken techempower server', 0);
