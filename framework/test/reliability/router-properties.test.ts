import test from 'ava';
import fc from 'fast-check';
import { compilePathPattern, type PathPattern } from '../../src/routing/path-pattern';
import { TrieRouter } from '../../src/routing/trie-router';
import { mayOverlap } from '../../src/routing/pattern-overlap';
import { LinearRouter } from '../../src/routing/linear-router';
import { BadRequestException } from '../../src/errors/http-errors';

// Small alphabets so that random paths often hit random patterns.
const word = fc.constantFrom('a', 'b', 'users', 'x1', '42', '7');
const patternSegment = fc.oneof(
  { weight: 3, arbitrary: word },
  { weight: 2, arbitrary: fc.constant('{p}') },
  { weight: 1, arbitrary: fc.constant('{p:\\d+}') },
  { weight: 1, arbitrary: fc.constant(':p:[a-z]+') },
);
const patternArb = fc.array(patternSegment, { minLength: 1, maxLength: 4 }).map((segs) => {
  let n = 0;
  return '/' + segs.map((s) => s.replace('p', `v${n++}`)).join('/');
});
const pathArb = fc
  .array(fc.oneof(word, fc.constantFrom('', 'zz', '%41', 'a%2Fb', 'c;m=1')), { minLength: 0, maxLength: 5 })
  .map((s) => '/' + s.join('/'));

/** The oracle: does the pattern match these decoded segments (segment by segment)? */
function matches(p: PathPattern, segments: string[]): boolean {
  if (p.segments.length !== segments.length) return false;
  return p.segments.every((ps, i) => {
    const s = segments[i]!;
    if (ps.kind === 'static') return ps.value === s;
    if (ps.kind === 'param') return s.length > 0;
    return ps.regex.test(s);
  });
}

function decodedSegments(path: string): string[] {
  const parts = path.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((p) => decodeURIComponent(p.split(';')[0]!));
}

test('a path matches exactly the routes it should, in both routers, and routing never throws on valid paths', (t) => {
  fc.assert(
    fc.property(
      fc.uniqueArray(patternArb, { minLength: 1, maxLength: 12, selector: (p) => compilePathPattern(p).shape }),
      fc.array(pathArb, { minLength: 1, maxLength: 10 }),
      (patterns, paths) => {
        const trie = new TrieRouter<string>();
        const linear = new LinearRouter<string>();
        const compiled = patterns.map((p) => compilePathPattern(p));
        for (const p of compiled) {
          trie.add('GET', p, p.source, 0);
          linear.add('GET', p, p.source, 0);
        }
        for (const path of paths) {
          const segments = decodedSegments(path);
          const expectAny = compiled.some((p) => matches(p, segments));
          const a = trie.find('GET', path);
          const b = linear.find('GET', path);
          if (!expectAny) {
            if (a !== null || b !== null) return false;
            continue;
          }
          if (a === null || !('slot' in a) || b === null || !('slot' in b)) return false;
          // The chosen route matches, and both routers choose the same one with the same values.
          if (!matches(a.slot.pattern, segments)) return false;
          if (a.slot.routes[0] !== b.slot.routes[0] || a.values.join('\u0000') !== b.values.join('\u0000'))
            return false;
          if (a.values.length !== a.slot.pattern.paramNames.length) return false;
        }
        return true;
      },
    ),
    { numRuns: 400 },
  );
  t.pass();
});

test('arbitrary request paths give a route, nothing, or a 400 for bad encoding: never another error', (t) => {
  const trie = new TrieRouter<string>();
  for (const p of ['/a/{x}', '/users/{id:\\d+}/b', '/s/{rest:.+}', '/']) trie.add('GET', compilePathPattern(p), p, 0);
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
      try {
        trie.find('GET', '/' + s);
        return true;
      } catch (err) {
        return err instanceof BadRequestException && err.status === 400;
      }
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test('paths made of percent signs, hex digits and other characters give a route, nothing, or a 400 for bad encoding: never another error', (t) => {
  // Binary strings almost never hold a '%' followed by a bad escape: this alphabet makes bad escapes common.
  const trie = new TrieRouter<string>();
  for (const p of ['/a/{x}', '/users/{id:\\d+}/b', '/s/{rest:.+}', '/']) trie.add('GET', compilePathPattern(p), p, 0);
  let refused = 0;
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom('%', '2', 'F', 'f', 'C', '0', 'E', 'D', '8', 'z', '/', 'a', 's', '\u00e9'),
        maxLength: 24,
      }),
      (s) => {
        try {
          trie.find('GET', '/' + s);
          return true;
        } catch (err) {
          refused++;
          return err instanceof BadRequestException && err.status === 400;
        }
      },
    ),
    { numRuns: 3000, seed: 17 },
  );
  t.true(refused > 100, `only ${refused} bad encodings were generated`);
});

test('the pattern compiler accepts or refuses with RegistrationError, never anything else', (t) => {
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom('/', '{', '}', ':', 'a', 'b', '\\', '.', '*', '(', ')', '[', ']', '+', '?', 'd'),
        maxLength: 24,
      }),
      (s) => {
        try {
          const p = compilePathPattern(s);
          return p.normalized.startsWith('/');
        } catch (err) {
          return (err as Error).name === 'RegistrationError';
        }
      },
    ),
    { numRuns: 3000 },
  );
  t.pass();
});

test('mayOverlap never says "no" for two patterns that one path matches (it decides which routes leave the JavaScript router)', (t) => {
  const spanningSegment = fc.oneof(
    { weight: 5, arbitrary: patternSegment },
    { weight: 1, arbitrary: fc.constantFrom('{p:.+}', '{p:.*}', 'x{p:.+}', '{p}.json') },
  );
  const anyPattern = fc.array(spanningSegment, { minLength: 1, maxLength: 4 }).map((segs) => {
    let n = 0;
    return '/' + segs.map((s) => s.replace('{p', () => `{v${n++}`).replace(':p:', () => `:v${n++}:`)).join('/');
  });
  const matchesPath = (pattern: PathPattern, path: string) => {
    const router = new TrieRouter<string>();
    router.add('GET', pattern, 'only', 0);
    try {
      const found = router.find('GET', path);
      return found !== null && 'slot' in found;
    } catch {
      return false;
    }
  };
  let overlapsSeen = 0;
  fc.assert(
    fc.property(anyPattern, anyPattern, fc.array(pathArb, { minLength: 1, maxLength: 20 }), (a, b, paths) => {
      const pa = compilePathPattern(a);
      const pb = compilePathPattern(b);
      const both = paths.some((path) => matchesPath(pa, path) && matchesPath(pb, path));
      if (both) overlapsSeen++;
      return !both || (mayOverlap(pa, pb) && mayOverlap(pb, pa));
    }),
    { numRuns: 4000 },
  );
  // Identical static segments at different positions, or different counts, are told apart.
  t.false(mayOverlap(compilePathPattern('/users/{id}'), compilePathPattern('/static/{path:.+}')));
  t.false(mayOverlap(compilePathPattern('/users/{id}'), compilePathPattern('/users/{id}/x')));
  t.false(mayOverlap(compilePathPattern('/users/me'), compilePathPattern('/users/{id:\\d+}')));
  t.true(mayOverlap(compilePathPattern('/users/{id}'), compilePathPattern('/{a:.+}')));
  t.true(overlapsSeen > 40, `only ${overlapsSeen} overlapping pairs generated`);
});
