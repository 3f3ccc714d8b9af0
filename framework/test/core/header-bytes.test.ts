import test from 'ava';
import {
  Context,
  GET,
  Header,
  HeaderParam,
  HttpServerResponse,
  Path,
  Produces,
  Response,
  RestBuilder,
} from '../../src/index';
import { keptBytes } from '../../src/http/header-bytes';
import { listen } from '../support/server';
import { rawRequest } from '../support/raw-http';

/**
 * A response's head goes to uWebSockets.js as one text (a composed default head, or composed per answer when the
 * answer has other headers): the bytes on the wire must be what a header-by-header write sends, for constant,
 * per-request and non-ASCII headers alike (uWebSockets.js encodes a string as UTF-8 either way).
 */

@Path('/h')
class HeadersResource {
  @GET
  @Path('constant')
  @Header('X-Constant: plain value')
  @Header('X-Utf8: caf\u00e9 \u2713')
  @Produces('application/vnd.example+json')
  constant() {
    return { ok: true };
  }

  @GET
  @Path('dynamic/{n}')
  dynamic(@Context() response: HttpServerResponse, @HeaderParam('x-echo') echo: string) {
    const n = response.getStatusCode();
    return Response.status(n === 200 ? 201 : n)
      .header('X-Echo', echo)
      .header('X-Utf8-Echo', `${echo}-\u00fc`)
      .type('text/x-per-request')
      .entity(`echo ${echo}`)
      .build();
  }
}

/** The head of a raw response, as received (latin1 text of the bytes). */
async function head(port: number, path: string, extra = ''): Promise<string> {
  const { text } = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

test.serial(
  'headers and status lines on the wire: constant, per-request and non-ASCII values, each in its own line',
  async (t) => {
    const app = new RestBuilder().register(HeadersResource).build();
    const server = await listen(app);
    try {
      for (let round = 0; round < 3; round++) {
        const constant = await head(server.port, '/h/constant');
        t.true(constant.startsWith('HTTP/1.1 200 OK\r\n'));
        t.true(constant.includes('\r\nX-Constant: plain value\r\n'));
        // Not ASCII: sent as the string, which uWebSockets.js encodes in UTF-8.
        t.true(constant.includes(`\r\nX-Utf8: ${utf8AsLatin1('caf\u00e9 \u2713')}\r\n`));
        t.true(constant.includes('\r\ncontent-type: application/vnd.example+json\r\n'));
        t.true(constant.includes('\r\nX-Content-Type-Options: nosniff\r\n'));

        // Values made per request, many of them: the table does not keep them, each answer carries its own.
        for (let i = 0; i < 40; i++) {
          const echo = `v${round}-${i}-${'x'.repeat(i)}`;
          const dynamic = await head(server.port, `/h/dynamic/${i}`, `X-Echo: ${echo}\r\n`);
          t.true(dynamic.startsWith('HTTP/1.1 201 Created\r\n'), dynamic);
          t.true(dynamic.includes(`\r\nX-Echo: ${echo}\r\n`));
          t.true(dynamic.includes(`\r\nX-Utf8-Echo: ${utf8AsLatin1(`${echo}-\u00fc`)}\r\n`));
          t.true(dynamic.includes('\r\ncontent-type: text/x-per-request\r\n'));
        }
        const missing = await head(server.port, '/h/nothing-here');
        t.true(missing.startsWith('HTTP/1.1 404 Not Found\r\n'));
      }
    } finally {
      server.close();
    }
  },
);

test.serial('the table of kept texts is bounded, and keeps ASCII texts only', (t) => {
  const bytes = keptBytes('x-kept-for-the-test');
  t.true(bytes instanceof ArrayBuffer);
  t.is(Buffer.from(bytes as ArrayBuffer).toString('latin1'), 'x-kept-for-the-test');
  t.is(keptBytes('x-kept-for-the-test'), bytes, 'the same bytes again');
  t.is(keptBytes('caf\u00e9'), 'caf\u00e9');
  // Far more texts than the table takes: the late ones come back as strings, the early ones stay bytes.
  for (let i = 0; i < 3000; i++) keptBytes(`filler-${i}`);
  t.is(keptBytes('late-text-after-filling'), 'late-text-after-filling');
  t.is(keptBytes('x-kept-for-the-test'), bytes);
});
