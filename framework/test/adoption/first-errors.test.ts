/**
 * The errors adopters meet first, in-process (packaging.test.ts sees the same ones from a packed
 * install): each must say what to do.
 */
import test from 'ava';
import {
  GET,
  Handles,
  POST,
  Path,
  PathParam,
  RegistrationError,
  RequestReader,
  RestBuilder,
  inject,
  type ValueReader,
} from '../../src/index';

test('a route compiled without decorator metadata is refused, naming the tsconfig flags and esbuild/tsx', (t) => {
  // What tsc emits without emitDecoratorMetadata: the decorators, but no design:paramtypes.
  class Plain {
    get(id: number): number {
      return id;
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Plain.prototype, 'get')!;
  (GET as unknown as MethodDecorator)(Plain.prototype, 'get', descriptor);
  Path('/plain/{id}')(Plain.prototype, 'get', descriptor);
  PathParam('id')(Plain.prototype, 'get', 0);

  const error = t.throws(() => new RestBuilder().register(Plain).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_NO_DECORATOR_METADATA');
  t.regex(error!.message, /^Plain\.get\(\): TypeScript's decorator metadata is missing/);
  t.regex(error!.message, /"experimentalDecorators": true and "emitDecoratorMetadata": true/);
  t.regex(error!.message, /esbuild and the tools built on it \(tsx, Vite, Vitest\) never emit decorator metadata/);
});

test('the same class with the metadata tsc would emit registers and converts the argument', async (t) => {
  class Plain {
    get(id: number): { id: number } {
      return { id };
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Plain.prototype, 'get')!;
  (GET as unknown as MethodDecorator)(Plain.prototype, 'get', descriptor);
  Path('/plain/{id}')(Plain.prototype, 'get', descriptor);
  Reflect.defineMetadata('design:paramtypes', [Number], Plain.prototype, 'get');
  PathParam('id')(Plain.prototype, 'get', 0);

  const response = await inject(new RestBuilder().register(Plain), '/plain/7');
  t.is(response.statusCode, 200);
  t.deepEqual(response.json(), { id: 7 });
});

test('decorators called the standard ECMAScript way (experimentalDecorators off) say which flags to set', (t) => {
  // What a standard decorator receives: the method and a context object.
  const context = { kind: 'method', name: 'list', static: false, private: false, addInitializer: () => undefined };
  const bare = t.throws(() => (GET as unknown as (value: unknown, ctx: unknown) => void)(function list() {}, context), {
    instanceOf: TypeError,
  });
  t.is((bare as TypeError & { code?: string }).code, 'RU_ERR_STANDARD_DECORATORS');
  t.regex(bare!.message, /compiled as standard ECMAScript decorators/);
  t.regex(bare!.message, /Set "experimentalDecorators": true and "emitDecoratorMetadata": true/);

  const withArgument = t.throws(
    () => (Path('/x') as unknown as (value: unknown, ctx: unknown) => void)(function list() {}, context),
    { instanceOf: TypeError },
  );
  t.is((withArgument as TypeError & { code?: string }).code, 'RU_ERR_STANDARD_DECORATORS');
});

test('two routes matching the same paths with different names: RU_ERR_ROUTE_CONFLICT says to use one name', (t) => {
  @Path('/orders')
  class Orders {
    @GET @Path('/{id}') get(@PathParam('id') id: string) {
      return id;
    }
  }
  @Path('/orders')
  class LegacyOrders {
    @GET @Path('/{orderId}') get(@PathParam('orderId') orderId: string) {
      return orderId;
    }
  }
  const error = t.throws(() => new RestBuilder().register(Orders, LegacyOrders).build(), {
    instanceOf: RegistrationError,
  });
  t.is((error as RegistrationError).code, 'RU_ERR_ROUTE_CONFLICT');
  t.regex(error!.message, /\(LegacyOrders\.get\)/);
  t.regex(error!.message, /\(Orders\.get\)/);
  t.regex(error!.message, /use one name$/);
});

class Order {
  id = '';
}

@Handles(Date)
class DateReader implements ValueReader<Date> {
  read(value: string): Date {
    return new Date(value);
  }
}

test('@RequestReader alone on a parameter reads the body, and its type is checked: RU_ERR_READER_TYPE says what to fix', async (t) => {
  @Path('/orders')
  class Orders {
    @POST @Path('/') create(@RequestReader(DateReader) order: Order) {
      return order.id;
    }
  }
  const error = t.throws(() => new RestBuilder().register(Orders).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_READER_TYPE');
  t.regex(
    error!.message,
    /Orders\.create\(\) parameter 0: reader DateReader produces Date, which cannot be assigned to the parameter type Order \(fix the reader, or add @SuppressCheck/,
  );

  @Path('/dates')
  class Dates {
    @POST @Path('/') create(@RequestReader(DateReader) when: Date) {
      return { year: when.getUTCFullYear() };
    }
  }
  const response = await inject(new RestBuilder().register(Dates), {
    method: 'POST',
    url: '/dates',
    headers: { 'content-type': 'text/plain' },
    body: '2024-02-29T12:00:00Z',
  });
  t.is(response.statusCode, 200, response.body);
  t.deepEqual(response.json(), { year: 2024 });
});
