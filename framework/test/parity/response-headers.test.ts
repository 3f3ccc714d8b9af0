/**
 * Issue 18, items 6, 7, 10 and 11: which headers a response carries (writers' own @Produces and @Header,
 * repeated headers, comma lists of media types, charset variants).
 */
import test from 'ava';
import {
  Consumes,
  Context,
  Get,
  GET,
  Handles,
  Header,
  HttpResponseWriter,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  POST,
  Post,
  Produces,
  Response,
  ResponseWriter,
  RestBuilder,
  UnauthorizedException,
  inject,
} from '../../src/index';
import { listen } from '../support/server';

class Invoice {
  constructor(readonly id: string) {}
}

@Handles(Invoice)
@Produces('text/csv')
@Header('X-Writer: invoice-csv', 'Cache-Control: private')
class InvoiceCsvWriter implements HttpResponseWriter<Invoice> {
  write(invoice: Invoice, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`id\n${invoice.id}\n`);
  }
}

@Produces('text/csv')
@Header('X-Writer: csv', 'Link: </terms>; rel="terms-of-service"')
class CsvWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(String(data));
  }
}

/** A writer that sets cookies and Vary through putHeader and appendHeader. */
class SessionWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _req: HttpServerRequest, res: HttpServerResponse) {
    res.putHeader('Set-Cookie', 'session=abc; HttpOnly');
    res.putHeader('Set-Cookie', 'theme=dark');
    res.appendHeader('Set-Cookie', 'lang=en');
    res.putHeader('Vary', 'Accept-Language');
    res.putHeader('X-Single', 'first');
    res.putHeader('X-Single', 'second');
    res.end(JSON.stringify(data));
  }
}

@Path('/h')
class Headers {
  @GET @Path('/invoice') invoice() {
    return new Invoice('7');
  }
  @GET @Path('/invoice-json') @Produces('application/json', 'text/csv') invoiceJson() {
    return new Invoice('8');
  }
  @GET @Path('/route-header-wins') @Header('Cache-Control: no-store') routeHeaderWins() {
    return new Invoice('9');
  }
  @GET @Path('/fixed') @ResponseWriter(CsvWriter) fixed() {
    return 'a,b';
  }
  @GET @Path('/fixed-produces') @Produces('text/plain', 'text/csv') @ResponseWriter(CsvWriter) fixedProduces() {
    return 'a,b';
  }
  @GET @Path('/cookies') cookies() {
    return Response.ok({ ok: true })
      .header('Set-Cookie', 'a=1; Path=/')
      .header('Set-Cookie', 'b=2; Path=/')
      .header('Link', '</a>; rel="next"')
      .header('Link', '</b>; rel="prev"')
      .header('Vary', 'Accept')
      .header('WWW-Authenticate', 'Bearer realm="api"')
      .header('WWW-Authenticate', 'Basic realm="api"')
      .build();
  }
  @GET @Path('/writer-cookies') @ResponseWriter(SessionWriter) writerCookies() {
    return { ok: true };
  }
  @GET @Path('/put-list') putList(@Context() res: HttpServerResponse) {
    res.putHeader('Set-Cookie', ['x=1', 'y=2']).putHeader('X-List', ['p', 'q']).putHeader('X-List', ['r']).end('done');
  }
  @GET @Path('/links') @Header('Link: </1>; rel="first"', 'Link: </9>; rel="last"', 'X-Once: 1') links() {
    return 'ok';
  }
  @GET @Path('/challenge') challenge(): string {
    throw new UnauthorizedException('who are you?', {
      headers: { 'WWW-Authenticate': ['Bearer realm="api"', 'Basic realm="api"'] },
    });
  }
  @GET @Path('/injected') injectedHeader(@Context() res: HttpServerResponse) {
    res.putHeader('X-Bad', 'a\r\nSet-Cookie: admin=1');
  }
  @Get('/short', 'application/json, text/plain', 'application/json, text/plain') short() {
    return { shorthand: true };
  }
  @Post('/short-consumes', 'application/json, text/plain', 'application/json') shortConsumes(body: unknown) {
    return { got: body };
  }
  @POST @Path('/consumes-list') @Consumes('application/json, text/plain') consumesList(body: unknown) {
    return { got: body };
  }
  @GET @Path('/produces-list') @Produces('text/csv, application/json') producesList() {
    return 'x,y';
  }
  @GET @Path('/header-list') @Header('Content-Type: text/csv, text/plain') headerList() {
    return 'x,y';
  }
  @GET @Path('/x-csv') @Produces('text/x-csv') xCsv() {
    return 'a,b';
  }
  @GET
  @Path('/charset')
  @Produces('text/plain', 'text/plain;charset=UTF-8', 'text/plain;charset=ISO-8859-1')
  charset() {
    return 'text';
  }
  @GET @Path('/specific') @Produces('text/plain', 'application/json') specific() {
    return 'text';
  }
}

const app = () => new RestBuilder().register(Headers).writer(Invoice, InvoiceCsvWriter);
const values = (raw: Array<[string, string]>, name: string) =>
  raw.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);

test("item 6: a type writer's own @Produces and @Header apply when the route has no @Produces", async (t) => {
  const r = await inject(app(), '/h/invoice');
  t.is(r.statusCode, 200);
  t.is(r.body, 'id\n7\n');
  t.is(r.headers['content-type'], 'text/csv');
  t.is(r.headers['x-writer'], 'invoice-csv');
  t.is(r.headers['cache-control'], 'private');
});

test("item 6: with a route @Produces, the writer's @Header is still added and Content-Type is the negotiated type", async (t) => {
  const r = await inject(app(), { url: '/h/invoice-json', headers: { accept: 'application/json' } });
  t.is(r.headers['content-type'], 'application/json');
  t.is(r.headers['x-writer'], 'invoice-csv');
  t.is(r.body, 'id\n8\n');
  const fixed = await inject(app(), { url: '/h/fixed-produces', headers: { accept: 'text/plain' } });
  t.is(fixed.headers['content-type'], 'text/plain');
  t.is(fixed.headers['x-writer'], 'csv');
  t.is((await inject(app(), '/h/fixed')).headers['content-type'], 'text/csv');
});

test("item 6 (deliberate): a route @Header wins over the writer's @Header of the same name", async (t) => {
  const r = await inject(app(), '/h/route-header-wins');
  t.is(r.headers['cache-control'], 'no-store');
  t.is(r.headers['x-writer'], 'invoice-csv');
});

test('item 7: a Response sends every Set-Cookie, Link and WWW-Authenticate it carries', async (t) => {
  const r = await inject(app(), '/h/cookies');
  t.deepEqual(values(r.rawHeaders, 'set-cookie'), ['a=1; Path=/', 'b=2; Path=/']);
  t.deepEqual(values(r.rawHeaders, 'link'), ['</a>; rel="next"', '</b>; rel="prev"']);
  t.deepEqual(values(r.rawHeaders, 'www-authenticate'), ['Bearer realm="api"', 'Basic realm="api"']);
  t.deepEqual(values(r.rawHeaders, 'vary'), ['Accept']);
});

test("item 7: repeated headers reach the wire from uWebSockets.js too, with CORS's Vary kept beside the route's", async (t) => {
  const server = await listen(new RestBuilder().register(Headers).enableCors('https://app\\.test').build());
  try {
    const r = await fetch(`${server.url}/h/cookies`, { headers: { origin: 'https://app.test' } });
    t.deepEqual(r.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
    t.is(r.headers.get('vary'), 'Origin, Accept');
    t.is(r.headers.get('www-authenticate'), 'Bearer realm="api", Basic realm="api"');
  } finally {
    server.close();
  }
});

test('item 7: putHeader and appendHeader in a writer send every cookie; other names are still replaced by putHeader', async (t) => {
  const r = await inject(app(), '/h/writer-cookies');
  t.deepEqual(values(r.rawHeaders, 'set-cookie'), ['session=abc; HttpOnly', 'theme=dark', 'lang=en']);
  t.deepEqual(values(r.rawHeaders, 'vary'), ['Accept-Language']);
  t.deepEqual(values(r.rawHeaders, 'x-single'), ['second']);
  const list = await inject(app(), '/h/put-list');
  t.deepEqual(values(list.rawHeaders, 'set-cookie'), ['x=1', 'y=2']);
  t.deepEqual(values(list.rawHeaders, 'x-list'), ['r']);
});

test('item 7: @Header lines of one name are all sent', async (t) => {
  const r = await inject(app(), '/h/links');
  t.deepEqual(values(r.rawHeaders, 'link'), ['</1>; rel="first"', '</9>; rel="last"']);
  t.deepEqual(values(r.rawHeaders, 'x-once'), ['1']);
});

test("item 7: an error's headers may repeat too (two WWW-Authenticate challenges)", async (t) => {
  const r = await inject(app(), '/h/challenge');
  t.is(r.statusCode, 401);
  t.deepEqual(values(r.rawHeaders, 'www-authenticate'), ['Bearer realm="api"', 'Basic realm="api"']);
});

test('item 7: header values with CR or LF are still refused (500, nothing injected)', async (t) => {
  const r = await inject(
    new RestBuilder().register(Headers).logger({ error() {}, warn() {}, info() {}, debug() {} }),
    '/h/injected',
  );
  t.is(r.statusCode, 500);
  t.deepEqual(values(r.rawHeaders, 'set-cookie'), []);
  t.deepEqual(values(r.rawHeaders, 'x-bad'), []);
});

test('item 10: a comma list of media types is split, in the shorthand, @Produces, a Content-Type @Header and a registration key', async (t) => {
  const short = await inject(app(), '/h/short');
  t.is(short.headers['content-type'], 'application/json');
  t.deepEqual(short.json(), { shorthand: true });
  const text = await inject(app(), { url: '/h/short', headers: { accept: 'text/plain' } });
  t.is(text.headers['content-type'], 'text/plain');
  t.is((await inject(app(), { url: '/h/short', headers: { accept: 'image/png' } })).statusCode, 406);
  t.is((await inject(app(), '/h/produces-list')).headers['content-type'], 'text/csv');
  t.is(
    (await inject(app(), { url: '/h/produces-list', headers: { accept: 'application/json' } })).headers['content-type'],
    'application/json',
  );
  t.is(
    (await inject(app(), { url: '/h/header-list', headers: { accept: 'text/plain' } })).headers['content-type'],
    'text/plain',
  );
  const registered = await inject(
    new RestBuilder().register(Headers).writer('text/csv, text/x-csv', CsvWriter),
    '/h/x-csv',
  );
  t.is(registered.headers['content-type'], 'text/x-csv');
  t.is(registered.headers['x-writer'], 'csv');
});

test('a route that chooses its type by Accept says Vary: Accept on every answer, beside what it varies by already; a one-type route does not', async (t) => {
  for (const accept of [undefined, 'application/json', 'text/plain']) {
    const r = await inject(app(), { url: '/h/short', headers: accept === undefined ? {} : { accept } });
    t.is(r.statusCode, 200, accept);
    t.deepEqual(values(r.rawHeaders, 'vary'), ['Accept'], accept);
  }
  t.deepEqual(values((await inject(app(), '/h/produces-list')).rawHeaders, 'vary'), ['Accept']);
  t.deepEqual(values((await inject(app(), '/h/links')).rawHeaders, 'vary'), []);
  const server = await listen(new RestBuilder().register(Headers).enableCors('https://app\\.test').build());
  try {
    const r = await fetch(`${server.url}/h/short`, { headers: { origin: 'https://app.test', accept: 'text/plain' } });
    t.is(r.headers.get('content-type'), 'text/plain');
    t.is(r.headers.get('vary'), 'Origin, Accept');
  } finally {
    server.close();
  }
});

test("item 10: a comma list in @Consumes and in the shorthand's consumes takes each type; another type is 415", async (t) => {
  for (const url of ['/h/short-consumes', '/h/consumes-list']) {
    const json = await inject(app(), {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    t.is(json.statusCode, 200, url);
    t.deepEqual(json.json(), { got: { a: 1 } }, url);
    const text = await inject(app(), {
      method: 'POST',
      url,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'hello',
    });
    t.is(text.statusCode, 200, url);
    t.deepEqual(text.json(), { got: 'hello' }, url);
    const csv = await inject(app(), { method: 'POST', url, headers: { 'content-type': 'text/csv' }, body: 'a,b' });
    t.is(csv.statusCode, 415, url);
    // The list itself is no media type a client can send.
    const list = await inject(app(), {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json, text/plain' },
      body: '{}',
    });
    t.is(list.statusCode, 415, url);
  }
});

test('item 11: asking for a charset variant gets it; a plain request gets the plain type', async (t) => {
  const ask = (accept?: string) =>
    inject(app(), { url: '/h/charset', headers: accept === undefined ? {} : { accept } });
  t.is((await ask('text/plain;charset=UTF-8')).headers['content-type'], 'text/plain;charset=UTF-8');
  t.is((await ask('text/plain; charset=utf-8')).headers['content-type'], 'text/plain;charset=UTF-8');
  t.is((await ask('text/plain;charset=iso-8859-1')).headers['content-type'], 'text/plain;charset=ISO-8859-1');
  t.is((await ask('text/plain')).headers['content-type'], 'text/plain');
  t.is((await ask()).headers['content-type'], 'text/plain');
  t.is(
    (await ask('text/plain;charset=UTF-8;q=0.2, text/plain;charset=ISO-8859-1')).headers['content-type'],
    'text/plain;charset=ISO-8859-1',
  );
});

test("item 11: between equal qualities the more specifically accepted type wins (as the reference's router picks)", async (t) => {
  const r = await inject(app(), { url: '/h/specific', headers: { accept: 'text/*, application/json' } });
  t.is(r.headers['content-type'], 'application/json');
  const q = await inject(app(), { url: '/h/specific', headers: { accept: 'text/*, application/json;q=0.5' } });
  t.is(q.headers['content-type'], 'text/plain');
});
