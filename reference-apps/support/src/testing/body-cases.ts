import {
  copyParts,
  fitsHeader,
  toRequest,
  type CorpusCase,
  type CorpusPlan,
  type Expectation,
  type RequestParts,
} from './corpus-case';
import type { CorpusRoute } from './corpus-routes';
import {
  deepArray,
  deepJsonBodies,
  INVALID_UTF8_JSON,
  malformedJsonBodies,
  MEDIA_TYPES,
  TINY_BODIES,
  wrongTypes,
  type Named,
} from './hostile-values';

type Path = ReadonlyArray<string | number>;

/** Keys that reach Object.prototype when a parser or a merge copies them naively. */
const POLLUTING_MEMBERS = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}'];

/** Strings tried on fields that are not strings (a string leaf gets every hostile string). */
const FEW_STRINGS = new Set([
  'empty',
  'NUL inside',
  'lone high surrogate',
  'emoji ZWJ sequence',
  'long ASCII (10,000)',
]);

/** Attacks on the body of a route: media types, malformed, deep, tiny and huge bodies, and every field of the valid body. */
export function bodyCases(
  plan: CorpusPlan,
  route: CorpusRoute,
  base: RequestParts,
  strings: Named<string>[],
): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const accepted = (plan.sample(route)?.bodyTypes ?? route.body?.mediaTypes ?? []).map(baseType);
  // A route that reads any type (or its document does not say) judges its bodies itself: anything goes.
  const anyType =
    accepted.length === 0 || accepted.some((type) => type.startsWith('*') || type === 'application/octet-stream');
  const readsJson = !anyType && accepted.includes('application/json');
  const mediaExpectation = (type: string | undefined, json: boolean): Expectation => {
    if (anyType) return 'any';
    if (type === undefined) return 'refused';
    return accepted.includes(baseType(type)) || (json && readsJson) ? 'any' : 'refused';
  };
  const sent =
    base.contentType === 'application/json' ? (JSON.parse(base.body!.toString('utf8')) as unknown) : undefined;
  const objectBody = sent !== null && typeof sent === 'object' && !Array.isArray(sent);
  const notJson: Expectation = readsJson ? 'refused' : 'any';
  const add = (
    kind: string,
    name: string,
    expect: Expectation,
    change: (parts: RequestParts) => void,
    flags: { mayClose?: boolean; mustClose?: boolean } = {},
  ) => {
    const parts = copyParts(base);
    change(parts);
    cases.push({ kind, route: route.key, name, expect, request: toRequest(route, parts), ...flags });
  };
  const withBody =
    (body: Buffer, type: string | undefined = 'application/json') =>
    (parts: RequestParts) => {
      parts.body = body;
      parts.contentType = type;
    };

  for (const media of MEDIA_TYPES.filter((entry) => entry.value.type === undefined || fitsHeader(entry.value.type))) {
    add(
      'media',
      media.name,
      mediaExpectation(media.value.type, media.value.json),
      (parts) => (parts.contentType = media.value.type),
    );
  }
  for (const body of malformedJsonBodies()) add('malformed', body.name, notJson, withBody(body.value));
  add('malformed', INVALID_UTF8_JSON.name, 'any', withBody(INVALID_UTF8_JSON.value));
  for (const body of deepJsonBodies(plan.bodyLimit)) {
    add(
      'deep',
      body.name,
      objectBody && readsJson && body.name.startsWith('arrays') ? 'refused' : 'any',
      withBody(body.value),
    );
  }
  for (const body of TINY_BODIES) {
    const notObject = !['empty', 'one space', 'empty object'].includes(body.name);
    add('size', `tiny: ${body.name}`, objectBody && readsJson && notObject ? 'refused' : 'any', withBody(body.value));
  }
  const padding = (size: number) => Buffer.from(`{"pad":"${'p'.repeat(Math.max(0, size - 10))}"}`);
  add('size', 'one byte over the body limit', 'refused', withBody(padding(plan.bodyLimit + 1)), { mayClose: true });
  add('size', 'exactly the body limit', 'any', withBody(padding(plan.bodyLimit)));
  add('size', 'ten times the body limit', 'refused', withBody(padding(plan.bodyLimit * 10)), { mayClose: true });
  add(
    'size',
    'a length over the limit declared, no body sent',
    'refused',
    (parts) => {
      parts.body = Buffer.alloc(0);
      parts.contentLength = false;
      parts.headers.push(['Content-Length', String(plan.bodyLimit * 4)]);
    },
    { mayClose: true, mustClose: true },
  );

  if (objectBody || Array.isArray(sent)) {
    for (const { name, value } of fieldVariants(sent, strings))
      add('fields', name, 'any', withBody(Buffer.from(value)));
  }
  return cases;
}

/** Every field of the valid body changed one at a time: hostile strings, wrong types, deep values, removed; objects get polluting keys. */
function fieldVariants(root: unknown, strings: Named<string>[]): Named<string>[] {
  const variants: Named<string>[] = [];
  const replaced = (path: Path, value: unknown) => JSON.stringify(setAt(root, path, value));
  const visit = (node: unknown, path: Path) => {
    const where =
      path.length === 0
        ? 'body'
        : path
            .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
            .join('')
            .replace(/^\./, '');
    if (Array.isArray(node)) {
      if (path.length > 0)
        variants.push({ name: `${where}: removed`, value: JSON.stringify(setAt(root, path, undefined)) });
      variants.push({ name: `${where}: empty array`, value: replaced(path, []) });
      variants.push({ name: `${where}: a null element`, value: replaced(path, [...node, null]) });
      if (node.length > 0)
        variants.push({
          name: `${where}: 1,000 copies of its first element`,
          value: replaced(
            path,
            Array.from({ length: 1000 }, () => node[0]),
          ),
        });
      node.slice(0, 2).forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    if (node !== null && typeof node === 'object') {
      if (path.length > 0)
        variants.push({ name: `${where}: removed`, value: JSON.stringify(setAt(root, path, undefined)) });
      for (const member of POLLUTING_MEMBERS) {
        const key = Object.keys(JSON.parse(member) as object)[0];
        variants.push({
          name: `${where}: ${key} key`,
          value: replaced(path, { ...(JSON.parse(member) as object), ...node }),
        });
      }
      variants.push({
        name: `${where}: unknown key with NUL and unicode`,
        value: replaced(path, { ...node, '\u0000\u00e9\u{1F511}': 'x' }),
      });
      for (const [key, value] of Object.entries(node)) visit(value, [...path, key]);
      return;
    }
    const pick = typeof node === 'string' ? strings : strings.filter((entry) => FEW_STRINGS.has(entry.name));
    for (const hostile of pick)
      variants.push({ name: `${where}: ${hostile.name}`, value: replaced(path, hostile.value) });
    for (const wrong of wrongTypes())
      variants.push({ name: `${where}: ${wrong.name}`, value: replaced(path, wrong.value) });
    variants.push({
      name: `${where}: arrays 5,000 deep`,
      value: JSON.stringify(setAt(root, path, '\u0000DEEP\u0000')).replace('"\\u0000DEEP\\u0000"', deepArray(5000)),
    });
    variants.push({ name: `${where}: removed`, value: JSON.stringify(setAt(root, path, undefined)) });
  };
  visit(root, []);
  return variants;
}

/** A copy of `root` with the value at `path` replaced (undefined removes it; a JSON.parse'd `__proto__` stays an own key). */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    const next = setAt(copy[head as number], rest, value);
    if (next === undefined) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(root as Record<string, unknown>))
    Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
  const next = setAt(copy[head as string], rest, value);
  if (next === undefined) delete copy[head as string];
  else
    Object.defineProperty(copy, head as string, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

function baseType(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase();
}
