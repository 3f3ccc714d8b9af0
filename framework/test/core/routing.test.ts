import test from 'ava';
import { compilePathPattern, joinPaths } from '../../src/routing/path-pattern';
import { TrieRouter } from '../../src/routing/trie-router';
import { LinearRouter } from '../../src/routing/linear-router';
import type { Router } from '../../src/routing/router';
import type { HttpMethod } from '../../src/metadata/types';
import { RegistrationError } from '../../src/errors/http-errors';

test('patterns: {name}, :name, {name:regex}, :name:regex and mixed segments', (t) => {
  const p = compilePathPattern('/users/{id}/books/:bookId');
  t.deepEqual(p.paramNames, ['id', 'bookId']);
  t.false(p.isStatic);
  t.is(p.shape, '/users/{}/books/{}');
  const r = compilePathPattern('/items/{id:\\d+}/:code:[a-z]{2}');
  t.deepEqual(r.paramNames, ['id', 'code']);
  t.true(r.regex.test('/items/12/ab'));
  t.false(r.regex.test('/items/x/ab'));
  const m = compilePathPattern('/files/{name}.{ext}');
  t.deepEqual(m.paramNames, ['name', 'ext']);
  // As in JAX-RS, a plain variable is the shortest match: {ext:[^.]+} would take only the last extension.
  t.deepEqual(m.regex.exec('/files/report.final.pdf')!.slice(1), ['report', 'final.pdf']);
  t.true(compilePathPattern('/static/{path:.+}').spansSegments);
  t.false(compilePathPattern('/a/{x:[^/]+}').spansSegments);
  t.is(compilePathPattern('a//b/').normalized, '/a/b');
  t.true(compilePathPattern('/').isStatic);
});

test('class path and method path join with one slash', (t) => {
  t.is(joinPaths('/api/', '/users'), '/api/users');
  t.is(joinPaths('/api', 'users'), '/api/users');
  t.is(joinPaths(undefined, '/x'), '/x');
});

test('malformed patterns fail with a message naming the problem', (t) => {
  const cases: Array<[string, RegExp]> = [
    ['/a/{id', /unbalanced "\{"/],
    ['/a/id}', /unbalanced "\}"/],
    ['/a/{id}/{id}', /appears twice/],
    ['/a/{id:[}', /invalid regular expression|unbalanced/],
    ['/a/{id:(x|y)}', /capturing group/],
    ['/a/{1bad}', /invalid variable name/],
    ['/a/{id:}', /empty regex/],
  ];
  for (const [source, message] of cases) {
    const err = t.throws(() => compilePathPattern(source), { instanceOf: RegistrationError }, source);
    t.regex(err!.message, message, source);
    t.is((err as RegistrationError).code, 'RU_ERR_MALFORMED_PATH');
  }
});

function routerSuite(name: string, make: () => Router<string>) {
  const add = (r: Router<string>, method: HttpMethod, path: string, id = `${method} ${path}`) =>
    r.add(method, compilePathPattern(path), id, 0);

  test(`${name}: static beats regex beats variable; values in pattern order`, (t) => {
    const r = make();
    add(r, 'GET', '/users/{id}');
    add(r, 'GET', '/users/me');
    add(r, 'GET', '/users/{id:\\d+}');
    add(r, 'GET', '/users/{id}/books/{book}');
    const find = (p: string) => {
      const m = r.find('GET', p);
      return m && 'slot' in m ? { route: m.slot.routes[0], values: m.values } : m;
    };
    t.deepEqual(find('/users/me'), { route: 'GET /users/me', values: [] });
    t.deepEqual(find('/users/42'), { route: 'GET /users/{id:\\d+}', values: ['42'] });
    t.deepEqual(find('/users/bob'), { route: 'GET /users/{id}', values: ['bob'] });
    t.deepEqual(find('/users/bob/books/7'), { route: 'GET /users/{id}/books/{book}', values: ['bob', '7'] });
    t.is(find('/users'), null);
    t.is(find('/users/bob/books'), null);
  });

  test(`${name}: method mismatch lists the allowed methods; HEAD uses GET`, (t) => {
    const r = make();
    add(r, 'GET', '/a/{x}');
    add(r, 'PUT', '/a/{x}');
    const m = r.find('DELETE', '/a/1');
    t.deepEqual(m, { allowed: ['GET', 'HEAD', 'OPTIONS', 'PUT'] });
    const h = r.find('HEAD', '/a/1');
    t.truthy(h && 'slot' in h && h.slot.method === 'GET');
  });

  test(`${name}: a method on a less specific pattern still matches`, (t) => {
    const r = make();
    add(r, 'GET', '/users/me');
    add(r, 'POST', '/users/{id}');
    const m = r.find('POST', '/users/me');
    t.truthy(m && 'slot' in m);
    t.deepEqual(m && 'slot' in m ? m.values : null, ['me']);
  });

  test(`${name}: encoded segments are decoded, matrix parameters and a trailing slash ignored`, (t) => {
    const r = make();
    add(r, 'GET', '/a b/{x}');
    const m = r.find('GET', '/a%20b/c%2Fd;color=red/');
    t.deepEqual(m && 'slot' in m ? m.values : null, ['c/d']);
    t.throws(() => r.find('GET', '/a%zz/x'), { message: /Malformed percent-encoding/ });
  });

  test(`${name}: variables spanning segments capture the whole rest`, (t) => {
    const r = make();
    add(r, 'GET', '/static/{path:.+}');
    add(r, 'GET', '/static/{name}');
    const deep = r.find('GET', '/static/css/site/main.css');
    t.deepEqual(deep && 'slot' in deep ? [deep.slot.routes[0], deep.values] : null, [
      'GET /static/{path:.+}',
      ['css/site/main.css'],
    ]);
    const flat = r.find('GET', '/static/x.css');
    t.deepEqual(flat && 'slot' in flat ? flat.slot.routes[0] : null, 'GET /static/{name}');
  });

  test(`${name}: identical paths keep every route, ordered by order then registration`, (t) => {
    const r = make();
    r.add('GET', compilePathPattern('/x'), 'second', 0);
    r.add('GET', compilePathPattern('/x'), 'third', 0);
    r.add('GET', compilePathPattern('/x'), 'first', -5);
    r.add('GET', compilePathPattern('/x'), 'last', 3);
    const m = r.find('GET', '/x');
    t.deepEqual(m && 'slot' in m ? m.slot.routes : null, ['first', 'second', 'third', 'last']);
  });
}

test('regression (fast-check): priorities hold whatever the registration order of patterns of different lengths', (t) => {
  for (const make of [() => new TrieRouter<string>(), () => new LinearRouter<string>()]) {
    const r = make();
    for (const p of ['/{v0}/:v1:[a-z]+', '/{v0}', '/{v0}/a']) r.add('GET', compilePathPattern(p), p, 0);
    const m = r.find('GET', '/zz/a');
    t.deepEqual(m && 'slot' in m ? [m.slot.routes[0], m.values] : m, ['/{v0}/a', ['zz']]);
  }
});

routerSuite('TrieRouter', () => new TrieRouter<string>());
routerSuite('LinearRouter', () => new LinearRouter<string>());

test('both routers agree on 1,000 generated routes', (t) => {
  const trie = new TrieRouter<string>();
  const linear = new LinearRouter<string>();
  for (let i = 0; i < 1000; i++) {
    const path = i % 3 === 0 ? `/r${i}/items` : i % 3 === 1 ? `/r${i}/{id}` : `/r${i}/{id:\\d+}/x`;
    trie.add('GET', compilePathPattern(path), path, 0);
    linear.add('GET', compilePathPattern(path), path, 0);
  }
  for (const p of ['/r999/items', '/r998/12/x', '/r998/ab/x', '/r997/q', '/r5/none/x', '/zzz']) {
    const a = trie.find('GET', p);
    const b = linear.find('GET', p);
    t.deepEqual(
      a && 'slot' in a ? [a.slot.routes[0], a.values] : a,
      b && 'slot' in b ? [b.slot.routes[0], b.values] : b,
      p,
    );
  }
});
