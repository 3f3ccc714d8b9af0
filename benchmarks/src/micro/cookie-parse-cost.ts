/**
 * `node benchmarks/dist/src/micro/cookie-parse-cost.js`: CPU per `getCookie` on a fresh request (what one
 * `@CookieParam` read costs: the header parsed once, one lookup), with rest.uws's parser (the `cookie` package)
 * against the hand-written parser it replaced (kept here, verbatim, as the reference), on one cookie and on a
 * browser's six. `npm run bench -- --costs --rows cookie-param --baseline <before>` measures the same over HTTP.
 */
import { HttpServerRequest } from 'rest.uws';

/** The parser rest.uws had before (it also turned `+` into a space, which breaks base64 values). */
function previousParser(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name.length === 0 || cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34)
      value = value.slice(1, -1);
    // Its decoding was the query string's: `+` became a space, then `%` escapes were decoded when valid.
    let decoded = value.indexOf('+') < 0 ? value : value.replace(/\+/g, ' ');
    if (decoded.indexOf('%') >= 0) {
      try {
        decoded = decodeURIComponent(decoded);
      } catch {
        // a malformed escape: kept as it is
      }
    }
    cookies.set(name, decoded);
  }
  return cookies;
}

const HEADERS: Record<string, string> = {
  'one cookie': 'session=4f1c6a52-3b1e-4d5e-9b0a-2d9c1f0e7a55',
  "a browser's six":
    '_ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000; theme=dark; session=s%3A4f1c6a52-3b1e.abcDEF123%2Bxyz; csrftoken=abcdefghijklmnopqrstuvwxyz012345; locale=en-US',
};

function nanosecondsPerCall(fn: () => unknown, calls: number): number {
  for (let i = 0; i < 50_000; i++) fn(); // warm-up: let V8 optimise
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / calls;
}

function main(): void {
  for (const [name, header] of Object.entries(HEADERS)) {
    const before: number[] = [];
    const after: number[] = [];
    // Interleaved rounds: the machine may be shared.
    for (let round = 0; round < 3; round++) {
      before.push(nanosecondsPerCall(() => previousParser(header).get('session'), 500_000));
      after.push(
        nanosecondsPerCall(
          () => new HttpServerRequest(null, null, 'GET', '/', '', { cookie: header }).getCookie('session'),
          500_000,
        ),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    console.log(
      `${name.padEnd(16)} previous parser ${median(before).toFixed(0).padStart(5)} ns   rest.uws (cookie package, request included) ${median(after).toFixed(0).padStart(5)} ns`,
    );
  }
}

main();
