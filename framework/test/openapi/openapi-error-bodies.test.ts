import test from 'ava';
import { IsInt, IsString } from 'class-validator';
import {
  ApiResponse,
  CatchWith,
  DefaultExceptionHandler,
  GET,
  Handles,
  NotFoundException,
  Path,
  PathParam,
  QueryParam,
  RestBuilder,
  WebApplicationException,
  openApi,
  openApiDocument,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type RestPlugin,
} from '../../src/index';
import { answerChecker } from '../support/openapi-validator';
import { listen } from '../support/server';

@Path('/items')
class ItemResource {
  @GET
  @Path('/{id:\\d+}')
  get(@PathParam('id') id: number): { id: number } {
    if (id > 10) throw new NotFoundException(`No item ${id}`);
    return { id };
  }
}

class ApiErrorDto {
  @IsInt() status!: number;
  @IsString() reason!: string;
}

/** An app's own envelope for every error, described by its `errorBody`. */
class EnvelopeHandler implements ExceptionHandler<unknown> {
  errorBody = { type: ApiErrorDto };
  write(error: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    const status = error instanceof WebApplicationException ? error.status : 500;
    response
      .setStatusCode(status)
      .putHeader('content-type', 'application/json')
      .end(JSON.stringify({ status, reason: (error as Error).message }));
  }
}

/** The same envelope, not described. */
class SilentHandler implements ExceptionHandler<unknown> {
  write(_error: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(404).putHeader('content-type', 'text/plain').end('gone fishing');
  }
}

/** Only 404s, as RFC 9457 problem details. */
@Handles(NotFoundException)
class ProblemNotFound implements ExceptionHandler<NotFoundException> {
  errorBody() {
    return {
      name: 'Problem',
      mediaType: 'application/problem+json',
      schema: {
        type: 'object',
        properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' } },
        required: ['type', 'title', 'status'],
      },
    };
  }
  write(_error: NotFoundException, _request: HttpServerRequest, response: HttpServerResponse): void {
    response
      .setStatusCode(404)
      .putHeader('content-type', 'application/problem+json')
      .end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
  }
}

const doc = (builder: RestBuilder): any => openApiDocument(builder.build(), { title: 'Items', version: '1' });

test('an app handler that takes every error documents every error answer with the body its errorBody names', async (t) => {
  const builder = new RestBuilder()
    .register(ItemResource)
    .errorHandler(EnvelopeHandler)
    .use(openApi({ title: 'Items', version: '1' }));
  const server = await listen(builder.build());
  t.teardown(server.close);
  const document: any = await (await fetch(`${server.url}/openapi.json`)).json();
  const responses = document.paths['/items/{id}'].get.responses;
  for (const status of ['400', '404'])
    t.deepEqual(
      responses[status].content,
      { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDto' } } },
      status,
    );
  t.is(document.components.schemas.Error, undefined, 'the built-in body is not described when no error reaches it');
  const check = answerChecker(document);
  for (const [url, status] of [
    ['/items/99', 404],
    [`/items/${'9'.repeat(400)}`, 400],
  ] as const) {
    const res = await fetch(`${server.url}${url}`);
    t.is(res.status, status);
    t.deepEqual(
      check('GET /items/{id}', {
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: await res.text(),
      }),
      [],
    );
  }
});

test('a handler that does not describe its body leaves the content out rather than guess', (t) => {
  const responses = doc(new RestBuilder().register(ItemResource).errorHandler(SilentHandler)).paths['/items/{id}'].get
    .responses;
  t.deepEqual(responses['404'], { description: 'Not found' });
  t.deepEqual(responses['400'], { description: 'Bad request: a missing or invalid argument' });
});

test("a handler of one error type describes that error only; a plugin handler (problem details) is read after the app's", (t) => {
  const own = doc(new RestBuilder().register(ItemResource).errorHandler(ProblemNotFound));
  t.deepEqual(own.paths['/items/{id}'].get.responses['404'].content, {
    'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
  });
  t.is(
    own.paths['/items/{id}'].get.responses['400'].content['application/json'].schema.$ref,
    '#/components/schemas/Error',
  );
  t.deepEqual(own.components.schemas.Problem.required, ['type', 'title', 'status']);

  const problems: RestPlugin = {
    name: 'problems',
    setup: (app) => app.errorHandler(NotFoundException, ProblemNotFound),
  };
  const viaPlugin = doc(new RestBuilder().register(ItemResource).use(problems));
  t.deepEqual(Object.keys(viaPlugin.paths['/items/{id}'].get.responses['404'].content), ['application/problem+json']);
  const appFirst = doc(new RestBuilder().register(ItemResource).use(problems).errorHandler(EnvelopeHandler));
  t.deepEqual(
    Object.keys(appFirst.paths['/items/{id}'].get.responses['404'].content),
    ['application/json'],
    "the app's handler is tried first",
  );
});

test("a plugin's route hooks tell the document what they may answer instead of the route", (t) => {
  const paywall: RestPlugin = {
    name: 'paywall',
    setup(app) {
      app.route((route) =>
        route.definition.path.startsWith('/items')
          ? {
              onRequest() {},
              answers: [
                {
                  status: 402,
                  description: 'Payment required: the free quota is spent',
                  headers: { 'X-Quota-Reset': 'When the quota is full again' },
                },
              ],
            }
          : undefined,
      );
    },
  };
  const document = doc(new RestBuilder().register(ItemResource).use(paywall));
  const answer = document.paths['/items/{id}'].get.responses['402'];
  t.is(answer.description, 'Payment required: the free quota is spent');
  t.deepEqual(answer.headers, {
    'X-Quota-Reset': { description: 'When the quota is full again', schema: { type: 'string' } },
  });
  t.is(answer.content['application/json'].schema.$ref, '#/components/schemas/Error');
});

/** A page's errors as HTML. */
class HtmlErrorPage implements ExceptionHandler<unknown> {
  errorBody = { mediaType: 'text/html', schema: { type: 'string' } };
  write(_error: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.putHeader('content-type', 'text/html').end('<p>Sorry</p>');
  }
}

@Path('/pages')
@CatchWith(HtmlErrorPage)
class PageResource {
  @GET
  @Path('/{name}')
  page(@PathParam('name') name: string, @QueryParam('lang') lang: string): string {
    return `${name} ${lang}`;
  }

  @GET
  @Path('/{name}/raw')
  raw(@PathParam('name') name: string): string {
    return name;
  }
}

test("a route's own @CatchWith handler answers the errors raised in the route; the app's those raised before it", (t) => {
  const document = doc(new RestBuilder().register(ItemResource, PageResource).errorHandler(EnvelopeHandler));
  // A missing ?lang is refused in the route (the page's handler); an undecodable {name} by the router (the app's).
  t.deepEqual(document.paths['/pages/{name}'].get.responses['400'].content, {
    'text/html': { schema: { type: 'string' } },
    'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDto' } },
  });
  t.deepEqual(
    Object.keys(document.paths['/pages/{name}/raw'].get.responses['400'].content),
    ['application/json'],
    'only the router can refuse a string path variable',
  );
});

/** HTML on the pages, rest.uws's own body elsewhere: the body depends on the route. */
class PerRouteHandler implements ExceptionHandler<unknown> {
  private readonly builtIn = new DefaultExceptionHandler();
  errorBody(route: { path: string }) {
    return route.path.startsWith('/pages')
      ? { mediaType: 'text/html', schema: { type: 'string' } }
      : this.builtIn.errorBody;
  }
  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    this.builtIn.write(error, request, response);
  }
}

test('errorBody(route) describes a body that depends on the route; a handler that hands errors to the built-in one reuses its errorBody', (t) => {
  const document = doc(new RestBuilder().register(ItemResource, PageResource).errorHandler(PerRouteHandler));
  t.deepEqual(Object.keys(document.paths['/pages/{name}/raw'].get.responses['400'].content), ['text/html']);
  t.deepEqual(document.paths['/items/{id}'].get.responses['400'].content, {
    'application/json': { schema: { $ref: '#/components/schemas/Error' } },
    'text/plain': { schema: { type: 'string' } },
  });
  t.truthy(document.components.schemas.Error.properties.violations);
});

class TakenError extends Error {}

/** Answers its own error type, without describing what it writes. */
@Handles(TakenError)
class TakenHandler implements ExceptionHandler<TakenError> {
  write(_error: TakenError, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(409).end('taken');
  }
}

@Path('/names')
class NameResource {
  @GET
  @Path('/{name}/claim')
  @ApiResponse(409, 'The name is taken')
  claim(@PathParam('name') name: string): string {
    if (name === 'ada') throw new TakenError();
    return name;
  }
}

test('an error declared without a body gets the body of the handler that takes every error, unless a narrower handler may answer it unseen', (t) => {
  const declared = (builder: RestBuilder) =>
    doc(builder.register(NameResource)).paths['/names/{name}/claim'].get.responses['409'];
  t.deepEqual(declared(new RestBuilder().errorHandler(EnvelopeHandler)).content, {
    'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDto' } },
  });
  t.deepEqual(
    Object.keys(declared(new RestBuilder()).content),
    ['application/json', 'text/plain'],
    "the built-in body (and validation's, the same JSON)",
  );
  t.deepEqual(
    declared(new RestBuilder().errorHandler(TakenHandler)),
    { description: 'The name is taken' },
    'TakenHandler may write it, and says nothing of its body',
  );
});
