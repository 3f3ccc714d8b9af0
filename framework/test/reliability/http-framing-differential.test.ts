import test from 'ava';
import fc from 'fast-check';
import { BodyParam, GET, Optional, Path, PathParam, POST, PUT, RestBuilder } from '../../src/index';
import { dispatchEntry, nodeServer, record, sendAndEnd, type Dispatches } from '../support/differential-servers';
import { framingCase, type FramingCase } from '../support/framing-cases';
import { listen } from '../support/server';

/**
 * Differential HTTP framing test: generated request streams (docs/security.md, Request framing) go to a
 * rest.uws app and to Node's own HTTP server (llhttp) over raw sockets; both record every request a handler
 * received, with its body. rest.uws must be the stricter one: what it handed to handlers, in order, is what
 * Node handed to its handler, or the start of it. A request only rest.uws runs, or runs with other bytes as
 * its body, is a difference in framing: what request smuggling is made of.
 *
 * Seeded and bounded: FRAMING_CASES cases (default 10,000) with seed FRAMING_SEED (default 20261125); each
 * case on fresh connections, several cases at a time.
 */

const CASES = Number(process.env.FRAMING_CASES ?? 10_000);
const SEED = Number(process.env.FRAMING_SEED ?? 20261125);
const LANES = 12;

@Path('/c/{id}')
class Recorder {
  constructor(private readonly dispatches: Dispatches) {}
  @POST @Path('/body') post(@PathParam('id') id: string, @BodyParam() @Optional body?: Buffer) {
    record(this.dispatches, id, dispatchEntry('POST', 'body', body));
    return 'ok';
  }
  @PUT @Path('/body') put(@PathParam('id') id: string, @BodyParam() @Optional body?: Buffer) {
    record(this.dispatches, id, dispatchEntry('PUT', 'body', body));
    return 'ok';
  }
  @GET @Path('/get') get(@PathParam('id') id: string, @BodyParam() @Optional body?: Buffer) {
    record(this.dispatches, id, dispatchEntry('GET', 'get', body));
    return 'ok';
  }
  @GET @Path('/tail') tail(@PathParam('id') id: string, @BodyParam() @Optional body?: Buffer) {
    record(this.dispatches, id, dispatchEntry('GET', 'tail', body));
    return 'ok';
  }
  @POST @Path('/tail-body') tailBody(@PathParam('id') id: string, @BodyParam() @Optional body?: Buffer) {
    record(this.dispatches, id, dispatchEntry('POST', 'tail-body', body));
    return 'ok';
  }
}

/**
 * The differences docs/security.md explains (Request framing, what the differential test finds):
 * - `header-oddity`: rest.uws agrees with Node once what cannot move a boundary is made clean (a DEL or NUL
 *   in a value, an empty header name, `Connection: close` before pipelined requests, spaces around a length);
 * - `empty-first-header`: an empty first framing header on a method whose headers are not all read (GET);
 * - `chunk-syntax`: a body announced as `Transfer-Encoding: chunked` whose chunk syntax uWebSockets.js
 *   accepts and Node refuses (rest.uws sees the decoded body only).
 */
type Difference = 'header-oddity' | 'empty-first-header' | 'chunk-syntax' | 'unexplained';

function classify(c: FramingCase, rest: readonly string[], nodeOnCleaned: readonly string[]): Difference {
  if (stricterOrSame(rest, nodeOnCleaned)) return 'header-oddity';
  const values = c.framing.map((line) => ({
    name: line.slice(0, line.indexOf(':')).toLowerCase(),
    value: line.slice(line.indexOf(':') + 1).trim(),
  }));
  const first = (name: string) => values.find((v) => v.name === name);
  if (
    !['POST', 'PUT', 'PATCH'].includes(c.method) &&
    (first('content-length')?.value === '' || first('transfer-encoding')?.value === '')
  )
    return 'empty-first-header';
  const encodings = values.filter((v) => v.name === 'transfer-encoding');
  const lengths = values.filter((v) => v.name === 'content-length');
  const folded = c.framing.some((line) => line.includes('\n'));
  if (!folded && encodings.length === 1 && encodings[0]!.value.toLowerCase() === 'chunked' && lengths.length === 0)
    return 'chunk-syntax';
  return 'unexplained';
}

/** Whether rest.uws's dispatches are Node's, or the start of them. */
function stricterOrSame(rest: readonly string[], node: readonly string[]): boolean {
  return rest.length <= node.length && rest.every((entry, i) => entry === node[i]);
}

test(`differential framing: ${CASES} generated request streams (seed ${SEED}); rest.uws hands handlers nothing Node's parser would not`, async (t) => {
  t.timeout(3 * 60_000);
  const quiet = { error() {}, warn() {}, info() {}, debug() {} };
  const restDispatches: Dispatches = new Map();
  const strictDispatches: Dispatches = new Map();
  const nodeDispatches: Dispatches = new Map();
  const rest = await listen(new RestBuilder().register(new Recorder(restDispatches)).logger(quiet).build());
  // The same app refusing chunked bodies (bodyHandler({ chunkedBodies: false })): no chunk-syntax difference is left.
  const strict = await listen(
    new RestBuilder()
      .register(new Recorder(strictDispatches))
      .bodyHandler({ chunkedBodies: false })
      .logger(quiet)
      .build(),
  );
  const node = await nodeServer(nodeDispatches);
  t.teardown(() => {
    rest.close();
    strict.close();
    return node.close();
  });

  const cases = fc.sample(framingCase, { numRuns: CASES, seed: SEED });
  const timeouts: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const id = next++;
      const bytes = cases[id]!.bytes(id);
      const [a, b, c] = await Promise.all([
        sendAndEnd(rest.port, bytes),
        sendAndEnd(strict.port, bytes),
        sendAndEnd(node.port, bytes),
      ]);
      if (a === 'timeout' || b === 'timeout' || c === 'timeout')
        timeouts.push(`case ${id}: rest.uws ${a}, rest.uws without chunked bodies ${b}, node ${c}`);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: LANES }, lane));
  const seconds = (Date.now() - started) / 1000;

  const count = (dispatches: Dispatches) => [...dispatches.values()].reduce((sum, list) => sum + list.length, 0);
  const differing = (dispatches: Dispatches) =>
    cases
      .map((_, id) => id)
      .filter((id) => !stricterOrSame(dispatches.get(String(id)) ?? [], nodeDispatches.get(String(id)) ?? []));
  const differingDefault = differing(restDispatches);
  const differingStrict = differing(strictDispatches);
  const bothRefused = cases.filter(
    (_, id) => !restDispatches.has(String(id)) && !nodeDispatches.has(String(id)),
  ).length;

  // Where they differ, Node reads the same case again with its boundary-neutral oddities made clean.
  const ids = [...new Set([...differingDefault, ...differingStrict])];
  const asSent = new Map(ids.map((id) => [id, nodeDispatches.get(String(id)) ?? []]));
  for (const id of ids) nodeDispatches.delete(String(id));
  await Promise.all(ids.map((id) => sendAndEnd(node.port, cases[id]!.sanitized(id))));

  const judge = (
    name: string,
    dispatches: Dispatches,
    differingIds: readonly number[],
    allowed: readonly Difference[],
  ) => {
    const counts: Record<string, number> = {};
    const unexplained: string[] = [];
    for (const id of differingIds) {
      const r = dispatches.get(String(id)) ?? [];
      const clean = nodeDispatches.get(String(id)) ?? [];
      const kind = classify(cases[id]!, r, clean);
      counts[kind] = (counts[kind] ?? 0) + 1;
      if (process.env.FRAMING_SHOW === kind)
        t.log(
          `${name}, ${kind}: case ${id} ${JSON.stringify(cases[id]!.bytes(id).toString('latin1'))}\n  rest.uws ${JSON.stringify(r)}\n  node ${JSON.stringify(asSent.get(id))}`,
        );
      if (!allowed.includes(kind)) {
        unexplained.push(
          `${name}: ${kind}: case ${id} ${cases[id]!.label}\n  bytes ${JSON.stringify(cases[id]!.bytes(id).toString('latin1'))}\n  rest.uws ${JSON.stringify(r)}\n  node     ${JSON.stringify(asSent.get(id))}\n  node, boundary-neutral oddities cleaned ${JSON.stringify(clean)}`,
        );
      }
    }
    t.log(
      `${name}: ${count(dispatches)} requests dispatched, ${differingIds.length} cases differ from Node; by kind ${JSON.stringify(counts)}`,
    );
    return unexplained;
  };
  t.log(
    `${cases.length} cases in ${seconds.toFixed(1)} s; Node dispatched ${count(nodeDispatches)} requests (before the re-reads); cases refused entirely by both rest.uws and Node: ${bothRefused}`,
  );
  const unexplained = [
    ...judge('rest.uws', restDispatches, differingDefault, ['header-oddity', 'empty-first-header', 'chunk-syntax']),
    ...judge('rest.uws without chunked bodies', strictDispatches, differingStrict, [
      'header-oddity',
      'empty-first-header',
    ]),
  ];
  t.deepEqual(timeouts, []);
  // Issue 17's bound for CI: at least 10,000 cases in under 2 minutes (the whole test, re-reads included).
  if (process.env.FRAMING_CASES === undefined) t.true(cases.length >= 10_000, `${cases.length} cases`);
  t.true(
    (Date.now() - started) / 1000 < 120,
    `the cases took ${((Date.now() - started) / 1000).toFixed(1)} s (bound: 120 s)`,
  );
  t.deepEqual(
    unexplained.slice(0, 20),
    [],
    `${unexplained.length} case(s) where rest.uws ran what Node would not, unexplained`,
  );
});
