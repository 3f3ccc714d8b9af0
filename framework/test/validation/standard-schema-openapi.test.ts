import test from 'ava';
import 'reflect-metadata';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  BeanParam,
  CookieParam,
  FormParam,
  GET,
  HeaderParam,
  openApi,
  Path,
  PathParam,
  POST,
  QueryParam,
  RestBuilder,
  Valid,
  type StandardSchemaV1,
} from '../../src/index';
import { openApiParserErrors } from '../support/established-parsers';
import { oasValidator } from '../support/openapi-validator';
import { listen } from '../support/server';

/** The OpenAPI document of routes validated by Standard Schemas: the schemas' JSON Schema, a valid OpenAPI 3.1 document. */

interface Kit {
  id: StandardSchemaV1;
  limit: StandardSchemaV1;
  tag: StandardSchemaV1;
  session: StandardSchemaV1;
  qty: StandardSchemaV1;
  order: StandardSchemaV1;
}

const kits: Record<string, Kit> = {
  zod: {
    id: z.coerce.number().int().min(1),
    limit: z.coerce.number().int().max(100).default(20),
    tag: z.string().regex(/^[a-z]+$/),
    session: z.string().min(8),
    qty: z.coerce.number().int().min(1).max(10),
    order: z.object({
      title: z.string().min(1).max(20),
      items: z.array(z.object({ sku: z.string().regex(/^[A-Z]+$/), quantity: z.number().int().min(1) })),
    }),
  },
  valibot: {
    id: v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
    limit: v.optional(v.pipe(v.string(), v.digits(), v.transform(Number), v.maxValue(100)), '20'),
    tag: v.pipe(v.string(), v.regex(/^[a-z]+$/)),
    session: v.pipe(v.string(), v.minLength(8)),
    qty: v.pipe(v.string(), v.digits()),
    order: v.object({
      title: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
      items: v.array(
        v.object({
          sku: v.pipe(v.string(), v.regex(/^[A-Z]+$/)),
          quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
        }),
      ),
    }),
  },
  arktype: {
    id: type('string.integer.parse').to('number >= 1'),
    limit: type('undefined')
      .pipe(() => 20)
      .or(type('string.integer.parse').to('number <= 100')),
    tag: type(/^[a-z]+$/),
    session: type('string >= 8'),
    qty: type('string.integer.parse').to('1 <= number.integer <= 10'),
    order: type({
      title: '0 < string <= 20',
      items: type({ sku: /^[A-Z]+$/, quantity: 'number.integer >= 1' }).array(),
    }),
  },
};

function resourceOf(k: Kit) {
  class Page {
    @QueryParam('offset') @Valid(k.id) offset!: number;
  }
  @Path('/')
  class Shop {
    @GET @Path('/items/{id}') item(@PathParam('id') @Valid(k.id) id: number) {
      return { id };
    }
    @GET @Path('/items') list(
      @QueryParam('limit') @Valid(k.limit) limit: number,
      @HeaderParam('x-tag') @Valid(k.tag) tag: string,
      @CookieParam('session') @Valid(k.session) session: string,
    ) {
      return { limit, tag, session };
    }
    @POST @Path('/cart') cart(@FormParam('qty') @Valid(k.qty) qty: number) {
      return { qty };
    }
    @POST @Path('/orders') order(@Valid(k.order) order: unknown) {
      return order;
    }
    @POST @Path('/orders/copy') copy(@Valid(k.order) order: unknown) {
      return order;
    }
    @GET @Path('/page') page(@BeanParam(Page) page: Page) {
      return page;
    }
  }
  return Shop;
}

/** The served document, after @readme/openapi-parser found it valid (schema, resolving $refs, parameters...). */
async function documentOf(...resources: Function[]): Promise<any> {
  const builder = new RestBuilder().use(openApi({ title: 'Shop', version: '1.0.0' }));
  for (const r of resources) builder.register(r);
  const server = await listen(builder.build());
  let doc: any;
  try {
    doc = await (await fetch(`${server.url}/openapi.json`)).json();
  } finally {
    server.close();
  }
  const errors = await openApiParserErrors(doc);
  if (errors !== '') throw new Error(`@readme/openapi-parser: ${errors}`);
  return doc;
}

for (const [library, kit] of Object.entries(kits)) {
  test(`${library}: the document shows each argument's schema and is valid OpenAPI 3.1`, async (t) => {
    const doc = await documentOf(resourceOf(kit));
    const validate = oasValidator();
    t.true(validate(doc) as boolean, JSON.stringify(validate.errors?.slice(0, 3)));

    const item = doc.paths['/items/{id}'].get;
    t.deepEqual(
      item.parameters.map((p: any) => [p.name, p.in, p.required]),
      [['id', 'path', true]],
    );
    t.truthy(item.responses['400'], 'a 400 is documented');
    const list = doc.paths['/items'].get;
    t.deepEqual(
      list.parameters.map((p: any) => [p.name, p.in, p.required]),
      [
        ['limit', 'query', false],
        ['x-tag', 'header', true],
        ['session', 'cookie', true],
      ],
    );
    const byName = Object.fromEntries(list.parameters.map((p: any) => [p.name, p.schema]));
    t.is(byName['x-tag'].pattern, '^[a-z]+$', JSON.stringify(byName['x-tag']));
    t.is(byName.session.minLength, 8, JSON.stringify(byName.session));
    t.is(byName.session.type, 'string');
    for (const schema of Object.values<any>(byName)) t.is(schema.$schema, undefined);

    const page = doc.paths['/page'].get;
    t.deepEqual(
      page.parameters.map((p: any) => [p.name, p.in, p.required]),
      [['offset', 'query', true]],
    );

    const cart = doc.paths['/cart'].post.requestBody;
    t.deepEqual(Object.keys(cart.content), ['application/x-www-form-urlencoded']);
    t.deepEqual(cart.content['application/x-www-form-urlencoded'].schema.required, ['qty']);

    // The body: a component, the same one for both routes that take the schema.
    const order = doc.paths['/orders'].post.requestBody;
    t.true(order.required);
    const ref = order.content['application/json'].schema.$ref as string;
    t.is(ref, '#/components/schemas/Shop_order_body');
    t.deepEqual(doc.paths['/orders/copy'].post.requestBody.content['application/json'].schema, { $ref: ref });
    const component = doc.components.schemas.Shop_order_body;
    t.is(component.type, 'object', JSON.stringify(component));
    t.deepEqual([...component.required].sort(), ['items', 'title']);
    t.is(component.properties.title.minLength, 1);
    t.is(component.properties.title.maxLength, 20);
    t.is(component.properties.items.type, 'array');
    t.is(component.properties.items.items.properties.sku.pattern, '^[A-Z]+$');
  });
}

test('a schema named with Zod meta becomes the component of that name; its definitions are components', async (t) => {
  const Item = z.object({ sku: z.string() }).meta({ id: 'Item' });
  const Order = z.object({ items: z.array(Item), first: Item.optional() }).meta({ id: 'Order' });
  @Path('/')
  class Orders {
    @POST @Path('/orders') create(@Valid(Order) order: unknown) {
      return order;
    }
  }
  const doc = await documentOf(Orders);
  const validate = oasValidator();
  t.true(validate(doc) as boolean, JSON.stringify(validate.errors?.slice(0, 3)));
  t.deepEqual(doc.paths['/orders'].post.requestBody.content['application/json'].schema, {
    $ref: '#/components/schemas/Order',
  });
  t.deepEqual(doc.components.schemas.Order.properties.items.items, { $ref: '#/components/schemas/Item' });
  t.is(doc.components.schemas.Item.properties.sku.type, 'string');
  // Every reference points at a component that exists.
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const r of refs) {
    const name = /#\/components\/schemas\/([^"]+)/.exec(r)?.[1];
    t.truthy(name !== undefined && doc.components.schemas[name] !== undefined, r);
  }
});

test('a recursive schema refers to its own component', async (t) => {
  interface Node {
    name: string;
    children: Node[];
  }
  const Tree: z.ZodType<Node> = z.object({
    name: z.string(),
    get children() {
      return z.array(Tree);
    },
  });
  @Path('/')
  class Trees {
    @POST @Path('/trees') create(@Valid(Tree) tree: unknown) {
      return tree;
    }
  }
  const doc = await documentOf(Trees);
  t.true(oasValidator()(doc) as boolean);
  t.deepEqual(doc.components.schemas.Trees_create_body.properties.children.items, {
    $ref: '#/components/schemas/Trees_create_body',
  });
});

test('a schema no JSON Schema can express is documented as such, not left empty', async (t) => {
  @Path('/')
  class Dates {
    @GET @Path('/since') since(@QueryParam('from') @Valid(z.date()) from: Date) {
      return { from };
    }
  }
  const doc = await documentOf(Dates);
  t.true(oasValidator()(doc) as boolean);
  const [from] = doc.paths['/since'].get.parameters;
  t.regex(from.schema.description, /zod schema that has no JSON Schema form.*Date cannot be represented/);
});
