import test from 'ava';
import * as net from 'node:net';
import { Transform } from 'node:stream';
import {
  Context,
  GET,
  HttpServerResponse,
  Path,
  Produces,
  RestBuilder,
  SetMetadata,
  type RestPlugin,
  type SentBody,
} from '../../src/index';
import { listen } from '../support/server';

const SHOUT = Symbol('test:shout');
/** Upper-cases the answers of routes marked @Shout, complete or streamed, through a Transform. */
const Shout = () => SetMetadata(SHOUT, true);

function upperCase(onDestroy?: () => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, Buffer.from(chunk.toString('latin1').toUpperCase(), 'latin1'));
    },
    destroy(error, callback) {
      onDestroy?.();
      callback(error);
    },
  });
}

const seen: Array<{ path: string; body: string | undefined; sent: SentBody }> = [];
let destroyed = 0;

const shout: RestPlugin = {
  name: 'shout',
  setup(app) {
    app.route((route) => {
      if (route.definition.extensions.get(SHOUT) !== true) return undefined;
      return {
        onSend(ctx, body, sent) {
          seen.push({ path: ctx.request.path(), body: body === undefined ? undefined : String(body), sent });
          ctx.response.putHeader('X-Shouted', 'yes');
          if (ctx.request.getHeader('x-fail') !== undefined) {
            const failing = new Transform({ transform: (_c, _e, cb) => cb(new Error('broken transform')) });
            ctx.response.streamBodyThrough(failing);
            return undefined;
          }
          ctx.response.streamBodyThrough(upperCase(() => destroyed++));
          return undefined;
        },
      };
    });
  },
};

@Path('/')
class Words {
  @GET
  @Path('quiet')
  quiet() {
    return 'quiet words';
  }

  @GET
  @Path('loud')
  @Shout()
  @Produces('text/plain')
  loud() {
    return 'loud words';
  }

  @GET
  @Path('loud-stream')
  @Shout()
  async stream(@Context() response: HttpServerResponse) {
    response.putHeader('Content-Type', 'text/plain');
    for (let i = 0; i < 3; i++) {
      if (!response.write(`part ${i};`))
        await new Promise<void>((resolve) => response.onWritable(() => (resolve(), true)));
    }
    response.end('end');
  }

  @GET
  @Path('loud-sized')
  @Shout()
  sized(@Context() response: HttpServerResponse) {
    response.putHeader('Content-Type', 'text/plain');
    response.tryEnd('abcdef', 6);
  }

  @GET
  @Path('endless')
  @Shout()
  endless(@Context() response: HttpServerResponse) {
    response.putHeader('Content-Type', 'text/plain');
    response.write('first part, then nothing more;');
    return new Promise<void>((resolve) => response.onAborted(resolve));
  }
}

async function serve() {
  return listen(new RestBuilder().use(shout).register(Words).build());
}

test.serial(
  'a route send hook runs for its route only, sees what kind of body goes out, and may pipe it through a transform',
  async (t) => {
    const server = await serve();
    t.teardown(() => server.close());
    seen.length = 0;

    const quiet = await fetch(`${server.url}/quiet`);
    t.is(await quiet.text(), 'quiet words');
    t.is(quiet.headers.get('x-shouted'), null);

    const loud = await fetch(`${server.url}/loud`);
    t.is(await loud.text(), 'LOUD WORDS');
    t.is(loud.headers.get('x-shouted'), 'yes');
    t.is(loud.headers.get('content-type'), 'text/plain');
    t.is(loud.headers.get('transfer-encoding'), 'chunked');

    t.is(await (await fetch(`${server.url}/loud-stream`)).text(), 'PART 0;PART 1;PART 2;END');
    t.is(await (await fetch(`${server.url}/loud-sized`)).text(), 'ABCDEF');

    t.deepEqual(
      seen.map((s) => [s.path, s.body, s.sent.streamed, s.sent.length]),
      [
        ['/loud', 'loud words', false, undefined],
        ['/loud-stream', undefined, true, undefined],
        ['/loud-sized', undefined, true, 6],
      ],
    );
  },
);

test.serial('HEAD answers are never piped: the head goes out alone', async (t) => {
  const server = await serve();
  t.teardown(() => server.close());
  const head = await fetch(`${server.url}/loud`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), '10');
  t.is(await head.text(), '');
});

test.serial(
  'a transform that fails mid-body closes the connection (the head is gone), and the server answers on',
  async (t) => {
    const server = await serve();
    t.teardown(() => server.close());
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /loud HTTP/1.1\r\nHost: x\r\nX-Fail: 1\r\n\r\n');
    await closed;
    const text = Buffer.concat(chunks).toString('latin1');
    t.false(text.includes('0\r\n\r\n'), 'no chunked terminator: the client sees an incomplete body');
    t.is(await (await fetch(`${server.url}/quiet`)).text(), 'quiet words');
  },
);

test.serial('a client that leaves destroys the transform (its memory goes at once)', async (t) => {
  const server = await serve();
  t.teardown(() => server.close());
  const before = destroyed;
  const socket = net.connect(server.port, '127.0.0.1');
  const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n');
  await firstBytes;
  const gone = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.destroy();
  await gone;
  // The server sees the close on its next loop turn: wait for the transform's destroy as the signal.
  while (destroyed === before) await new Promise((r) => setImmediate(r));
  t.is(destroyed, before + 1);
});

test('onSendMinBytes: the route hook skips complete bodies shorter than its bytes, counting UTF-8 bytes; streamed bodies always reach it', async (t) => {
  const marked: string[] = [];
  const stamp: RestPlugin = {
    name: 'stamp',
    setup(app) {
      app.route(() => ({
        onSendMinBytes: 10,
        onSend(ctx) {
          marked.push(ctx.request.path());
          ctx.response.putHeader('X-Stamped', 'yes');
        },
      }));
    },
  };
  @Path('/')
  class Sizes {
    @GET
    @Path('nine')
    @Produces('text/plain')
    nine() {
      return '123456789';
    }
    @GET
    @Path('ten')
    @Produces('text/plain')
    ten() {
      return '1234567890';
    }
    /** Four characters, but ten bytes in UTF-8: the length the hook is skipped by is the bytes'. */
    @GET
    @Path('wide')
    @Produces('text/plain')
    wide() {
      return 'éé€€';
    }
    /** Four characters, nine bytes: one short. */
    @GET
    @Path('wide-short')
    @Produces('text/plain')
    wideShort() {
      return 'ééé€';
    }
    @GET
    @Path('empty')
    empty(@Context() response: HttpServerResponse) {
      response.setStatusCode(204).end();
    }
    @GET
    @Path('streamed')
    streamed(@Context() response: HttpServerResponse) {
      response.putHeader('Content-Type', 'text/plain');
      response.write('a');
      response.end('b');
    }
  }
  const server = await listen(new RestBuilder().use(stamp).register(Sizes).build());
  t.teardown(() => server.close());
  const stamped = async (path: string) => {
    const r = await fetch(`${server.url}${path}`);
    await r.arrayBuffer();
    return r.headers.get('x-stamped');
  };
  t.is(await stamped('/nine'), null);
  t.is(await stamped('/ten'), 'yes');
  t.is(await stamped('/wide'), 'yes');
  t.is(await stamped('/wide-short'), null);
  t.is(await stamped('/empty'), null);
  t.is(await stamped('/streamed'), 'yes');
  t.deepEqual(marked, ['/ten', '/wide', '/streamed']);
});
