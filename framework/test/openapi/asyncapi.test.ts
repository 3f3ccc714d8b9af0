import test from 'ava';
import Ajv2020 from 'ajv/dist/2020';
import { IsString, Length } from 'class-validator';
import {
  ApiMessages,
  asyncApi,
  asyncApiDocument,
  Authenticate,
  BearerAuthenticationProvider,
  connectWebSocket,
  GET,
  HeaderParam,
  openApi,
  Optional,
  Path,
  PathParam,
  QueryParam,
  RestBuilder,
  User,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';
import { asyncApiParse, openApiParserErrors } from '../support/established-parsers';
import { listen } from '../support/server';

class SayMessage {
  @IsString() @Length(1, 200) text!: string;
}

class SaidMessage {
  @IsString() from!: string;
  @IsString() text!: string;
}

const JOINED = {
  type: 'object',
  properties: { room: { type: 'string' }, as: { type: 'string' } },
  required: ['room', 'as'],
  additionalProperties: false,
};

const tokens = BearerAuthenticationProvider.fromTokens({ 'secret-token': new User('ada', ['member']) });

@WebSocket('/rooms/{room:[a-z]+}')
@Authenticate(tokens)
@ApiMessages({
  description: 'A chat room: say something, hear what the others say.',
  receive: { Say: SayMessage },
  send: {
    Said: SaidMessage,
    Joined: {
      schema: JOINED,
      title: 'Joined',
      description: 'Sent once, when the socket opens',
      examples: [{ room: 'lobby', as: 'ada' }],
    },
  },
})
class RoomEndpoint {
  open(
    connection: WebSocketConnection,
    @PathParam('room') room: string,
    @QueryParam('nick') nick: string,
    @HeaderParam('X-Client') @Optional client?: string,
  ) {
    connection.data.nick = nick;
    connection.sendJson({ room, as: nick });
    void client;
  }

  message(connection: WebSocketConnection, data: string | Buffer) {
    const said = JSON.parse(String(data)) as SayMessage;
    connection.sendJson({ from: connection.data.nick, text: said.text });
  }
}

@WebSocket('/echo')
class EchoEndpoint {
  message(connection: WebSocketConnection, data: string | Buffer) {
    connection.send(String(data));
  }
}

@Path('/hello')
class HelloResource {
  @GET
  hello(): string {
    return 'hello';
  }
}

function buildApp() {
  return new RestBuilder()
    .register(HelloResource, RoomEndpoint, EchoEndpoint)
    .use(openApi({ title: 'Chat', version: '1.0.0' }))
    .use(
      asyncApi({
        title: 'Chat',
        version: '1.0.0',
        description: 'The chat rooms',
        servers: { local: { host: 'localhost:8080', protocol: 'ws' } },
      }),
    );
}

test('the AsyncAPI document is served beside the OpenAPI one and @asyncapi/parser finds no error in it', async (t) => {
  const server = await listen(buildApp().build());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/asyncapi.json`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const doc: any = await res.json();
  const { parsed, errors } = await asyncApiParse(doc);
  t.deepEqual(errors, []);
  t.is(doc.asyncapi, '3.0.0');
  t.deepEqual(doc.info, { title: 'Chat', version: '1.0.0', description: 'The chat rooms' });

  // Through the parser's model, as a tool reading the document sees it.
  const room = parsed!.channels().get('RoomEndpoint')!;
  t.is(room.address(), '/rooms/{room}');
  t.deepEqual(
    room
      .messages()
      .all()
      .map((m) => m.name())
      .sort(),
    ['Joined', 'Said', 'Say'],
  );
  t.deepEqual(
    parsed!
      .operations()
      .all()
      .map(
        (o) =>
          `${o.id()} ${o.action()} ${o
            .messages()
            .all()
            .map((m) => m.name())
            .join(',')}`,
      )
      .sort(),
    ['EchoEndpoint_receive receive ', 'RoomEndpoint_receive receive Say', 'RoomEndpoint_send send Said,Joined'],
  );
  const say = parsed!.components().messages().get('Say')!;
  t.deepEqual(say.payload()!.required(), ['text']);
  t.is(say.payload()!.properties()!.text!.maxLength(), 200);

  // Path variables are channel parameters; query and headers go to the ws binding.
  t.deepEqual(doc.channels.RoomEndpoint.parameters, { room: { description: 'Matches ^(?:[a-z]+)$' } });
  t.deepEqual(doc.channels.RoomEndpoint.bindings.ws.query, {
    type: 'object',
    properties: { nick: { type: 'string' } },
    required: ['nick'],
  });
  t.deepEqual(doc.channels.RoomEndpoint.bindings.ws.headers, {
    type: 'object',
    properties: { 'X-Client': { type: 'string' } },
  });
  t.deepEqual(doc.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer' } });
  t.deepEqual(doc.operations.RoomEndpoint_send.security, [{ $ref: '#/components/securitySchemes/bearerAuth' }]);
  t.is(doc.operations.EchoEndpoint_receive.security, undefined);
  t.deepEqual(doc.servers, { local: { host: 'localhost:8080', protocol: 'ws' } });

  // The OpenAPI document lists neither document route nor the WebSocket endpoints, and an established parser accepts it.
  const openapi: any = await (await fetch(`${server.url}/openapi.json`)).json();
  t.deepEqual(Object.keys(openapi.paths), ['/hello']);
  t.is(await openApiParserErrors(openapi), '');
});

test('the parser used here does reject a broken document (the check above can fail)', async (t) => {
  const doc: any = asyncApiDocument(buildApp().build(), { title: 'Chat', version: '1.0.0' });
  t.deepEqual((await asyncApiParse(doc)).errors, []);
  delete doc.operations.RoomEndpoint_send.channel;
  doc.channels.RoomEndpoint.messages.Said = { $ref: '#/components/messages/Nowhere' };
  const { errors } = await asyncApiParse(doc);
  t.true(errors.length >= 2, errors.join('\n'));
});

test('what the endpoint sends validates against the documented payloads', async (t) => {
  const app = buildApp();
  const doc: any = asyncApiDocument(app.build(), { title: 'Chat', version: '1.0.0' });
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const payload = (name: string) =>
    ajv.compile({ $ref: `doc#/components/messages/${name}/payload` }) as (v: unknown) => boolean;
  const ws = await connectWebSocket(app, '/rooms/lobby?nick=ada', {
    headers: { authorization: 'Bearer secret-token' },
  });
  t.teardown(() => ws.close());
  const joined = (await ws.next()).json();
  t.deepEqual(joined, { room: 'lobby', as: 'ada' });
  t.true(payload('Joined')(joined));
  ws.send(JSON.stringify({ text: 'hi' }));
  const said = (await ws.next()).json();
  t.deepEqual(said, { from: 'ada', text: 'hi' });
  t.true(payload('Said')(said));
  t.false(payload('Said')({ from: 'ada' }), 'the schema does refuse a message without text');
});

test('@ApiMessages and asyncApi refuse declarations they cannot document, with RU_ERR_ASYNCAPI', (t) => {
  const bad: Array<() => unknown> = [
    () => ApiMessages({ receive: { 'a b': SayMessage } }),
    () => ApiMessages({ send: { X: {} as never } }),
    () => ApiMessages({ send: { X: { schema: {}, type: SayMessage } } }),
    () => ApiMessages({ sent: {} } as never),
    () => asyncApi({ title: '', version: '1' }),
    () => asyncApi({ title: 'x', version: '1', servers: { p: { host: 'h', protocol: 'http' as never } } }),
    () => asyncApi({ title: 'x', version: '1', path: 'asyncapi.json' }),
  ];
  for (const make of bad) t.is((t.throws(make) as { code?: string } | undefined)?.code, 'RU_ERR_ASYNCAPI');

  @WebSocket('/twice')
  @ApiMessages({ receive: { Same: SayMessage }, send: { Same: SaidMessage } })
  class Twice {
    message() {}
  }
  const app = new RestBuilder().register(Twice).build();
  const error = t.throws(() => asyncApiDocument(app, { title: 'x', version: '1' }));
  t.regex(error!.message, /both received and sent/);
});
