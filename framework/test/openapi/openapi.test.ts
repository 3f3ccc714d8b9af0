import test from 'ava';
import Ajv2020 from 'ajv/dist/2020';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  ApiExclude,
  ApiOperation,
  ApiResponse,
  ApiTags,
  Authenticate,
  BasicAuthenticationProvider,
  BeanParam,
  BearerAuthenticationProvider,
  BodyParam,
  Constraint,
  Consumes,
  Max as RangeMax,
  Min as RangeMin,
  DefaultValue,
  DELETE,
  FormParam,
  GET,
  HeaderParam,
  loadUws,
  openApiDocument,
  Path,
  PathParam,
  PermitAll,
  POST,
  Produces,
  QueryParam,
  RestBuilder,
  RestRouter,
  RolesAllowed,
  User,
  Valid,
} from '../../src/index';
import { openApiParserErrors } from '../support/established-parsers';
import { oasValidator } from '../support/openapi-validator';
import { listen } from '../support/server';

enum Currency {
  EUR = 'EUR',
  USD = 'USD',
}

class AddressDto {
  @IsString()
  @Length(2, 40)
  city!: string;

  @IsOptional()
  @Matches(/^[0-9]{4,6}$/)
  zip?: string;
}

class BookingRequest {
  @IsString()
  @Length(1, 80)
  name!: string;

  @IsEmail()
  email!: string;

  @IsInt()
  @Min(1)
  @Max(20)
  guests!: number;

  @IsEnum(Currency)
  currency!: Currency;

  @ValidateNested()
  @Type(() => AddressDto)
  address!: AddressDto;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => AddressDto)
  @ArrayMinSize(1)
  extraAddresses?: AddressDto[];

  @IsOptional()
  @IsString({ each: true })
  tags?: string[];
}

class BookingView {
  @IsString()
  id!: string;

  @IsInt()
  guests!: number;
}

class Paging {
  @QueryParam('page') @DefaultValue('1') page!: number;
  @QueryParam('size', { optional: true }) size?: number;
}

const users = BearerAuthenticationProvider.fromTokens({ token: new User('ada', ['admin']) });

@Path('/bookings')
class BookingResource {
  @POST
  @Path('/')
  @Consumes('application/json')
  @Produces('application/json')
  @ApiOperation({ summary: 'Create a booking' })
  @ApiResponse(201, { type: BookingView, description: 'Created' })
  async create(@BodyParam() booking: BookingRequest): Promise<BookingView> {
    return { id: 'b1', guests: booking.guests };
  }

  @GET
  @Path('{id:[a-z0-9]+}')
  get(@PathParam('id') id: string, @HeaderParam('x-trace', { optional: true }) trace?: string): BookingView {
    return { id: id + (trace ?? ''), guests: 1 };
  }

  @GET
  @Path('/')
  @ApiResponse(200, { type: BookingView, isArray: true })
  async list(
    @BeanParam() paging: Paging,
    @QueryParam('currency', { optional: true, type: Currency }) currency?: Currency,
  ): Promise<BookingView[]> {
    return [{ id: `${paging.page}${currency ?? ''}`, guests: 2 }];
  }

  @DELETE
  @Path(':id')
  @RolesAllowed('admin')
  remove(@PathParam('id') _id: string): void {}

  @GET
  @Path('internal')
  @ApiExclude
  internal(): string {
    return 'hidden';
  }
}

@Path('/public')
@PermitAll
@ApiTags('status')
class PublicResource {
  @GET
  @Path('health')
  @Produces('text/plain')
  health(): string {
    return 'ok';
  }

  @POST
  @Path('contact')
  contact(@FormParam('name') name: string, @FormParam('age', { optional: true }) age?: number): string {
    return `${name}${age ?? ''}`;
  }
}

/** A Basic provider as a class (subclasses keep the Basic scheme in the document). */
class AdminPasswords extends BasicAuthenticationProvider {
  constructor() {
    super((name, password) => (name === 'root' && password === 'secret' ? new User('root', ['admin']) : null));
  }
}

@Path('/admin')
@Authenticate(AdminPasswords)
class AdminResource {
  @GET
  @Path('stats')
  stats(
    @QueryParam('days') @RangeMin(1) @RangeMax(90) days: number,
    @QueryParam('sort', { optional: true }) @Constraint(IsIn(['asc', 'desc'])) sort?: string,
  ): { days: number } {
    void sort;
    return { days };
  }
}

function buildApp() {
  return new RestBuilder()
    .authenticateWith(users)
    .register(BookingResource, PublicResource, AdminResource)
    .openApi({ title: 'Bookings', version: '1.2.3', path: '/openapi.json', description: 'Test API' });
}

test('the document is served as JSON at the path, valid against the OpenAPI 3.1 schema', async (t) => {
  const server = await listen(buildApp().build());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/openapi.json`);
  t.is(res.status, 200, 'public although the app requires authentication');
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const doc: any = await res.json();
  const validate = oasValidator();
  t.true(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  t.is(await openApiParserErrors(doc), '', 'an established OpenAPI 3.1 parser accepts it too');
  t.is(doc.openapi, '3.1.0');
  t.deepEqual(doc.info, { title: 'Bookings', version: '1.2.3', description: 'Test API' });
  t.deepEqual(Object.keys(doc.paths).sort(), [
    '/admin/stats',
    '/bookings',
    '/bookings/{id}',
    '/public/contact',
    '/public/health',
  ]);
  t.false(JSON.stringify(doc).includes('openapi.json'), 'the document route is not listed');
  t.false(JSON.stringify(doc).includes('internal'), '@ApiExclude routes are not listed');

  // Every component schema is itself a valid JSON Schema 2020-12.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
    t.true(ajv.validateSchema(schema) as boolean, `${name}: ${JSON.stringify(ajv.errors)}`);
  }
});

test('request bodies and responses come from the classes and their class-validator constraints', (t) => {
  const app = buildApp().build();
  const doc: any = openApiDocument(app, { title: 'Bookings', version: '1' });
  const create = doc.paths['/bookings'].post;
  t.is(create.summary, 'Create a booking');
  t.is(create.operationId, 'BookingResource_create');
  t.deepEqual(create.requestBody, {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/BookingRequest' } } },
  });
  t.deepEqual(create.responses['201'], {
    description: 'Created',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/BookingView' } } },
  });
  t.is(create.responses['400'].content['application/json'].schema.$ref, '#/components/schemas/Error');
  t.truthy(create.responses['415']);

  const booking = doc.components.schemas.BookingRequest;
  t.deepEqual(booking.required.sort(), ['address', 'currency', 'email', 'guests', 'name']);
  t.deepEqual(booking.properties.name, { type: 'string', minLength: 1, maxLength: 80 });
  t.deepEqual(booking.properties.email, { type: 'string', format: 'email' });
  t.deepEqual(booking.properties.guests, { type: 'integer', minimum: 1, maximum: 20 });
  t.deepEqual(booking.properties.currency.enum, ['EUR', 'USD']);
  t.deepEqual(booking.properties.address, { $ref: '#/components/schemas/AddressDto' });
  // @IsOptional properties accept null too (class-validator skips null as well as undefined).
  t.deepEqual(booking.properties.extraAddresses, {
    type: ['array', 'null'],
    items: { $ref: '#/components/schemas/AddressDto' },
    minItems: 1,
  });
  t.deepEqual(booking.properties.tags, { type: ['array', 'null'], items: { type: 'string' } });
  t.deepEqual(doc.components.schemas.AddressDto, {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2, maxLength: 40 },
      zip: { type: ['string', 'null'], pattern: '^[0-9]{4,6}$' },
    },
    required: ['city'],
  });
  t.deepEqual(doc.paths['/bookings'].get.responses['200'].content['application/json'].schema, {
    type: 'array',
    items: { $ref: '#/components/schemas/BookingView' },
  });
  t.deepEqual(
    doc.paths['/bookings/{id}'].get.responses['200'].content['application/json'].schema,
    { $ref: '#/components/schemas/BookingView' },
    'from the declared return type',
  );
  t.deepEqual(doc.paths['/bookings/{id}'].delete.responses['204'], { description: 'No Content' });
});

test('a property under @ValidateIf is not required: its constraints run only when the condition holds', (t) => {
  class Leave {
    @IsIn(['sick', 'other']) kind!: string;
    @ValidateIf((leave: Leave) => leave.kind === 'other') @IsDefined() @IsNotEmpty() @IsString() reason?: string;
  }
  @Path('/leaves')
  class LeaveResource {
    @POST create(@Valid leave: Leave): string {
      return leave.kind;
    }
  }
  const doc: any = openApiDocument(new RestBuilder().register(LeaveResource).build(), {
    title: 'Leaves',
    version: '1',
  });
  t.deepEqual(doc.components.schemas.Leave, {
    type: 'object',
    properties: { kind: { type: 'string', enum: ['sick', 'other'] }, reason: { type: 'string', minLength: 1 } },
    required: ['kind'],
  });
});

test('parameters: path variables with their regex, query defaults, enums and constraints, bean fields, headers, forms', (t) => {
  const doc: any = openApiDocument(buildApp().build(), { title: 'Bookings', version: '1' });
  t.deepEqual(doc.paths['/bookings/{id}'].get.parameters, [
    { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:[a-z0-9]+)$' } },
    { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
  ]);
  t.deepEqual(doc.paths['/bookings'].get.parameters, [
    { name: 'page', in: 'query', required: false, schema: { type: 'number', default: 1 } },
    { name: 'size', in: 'query', required: false, schema: { type: 'number' } },
    { name: 'currency', in: 'query', required: false, schema: { type: 'string', enum: ['EUR', 'USD'] } },
  ]);
  t.deepEqual(
    doc.paths['/admin/stats'].get.parameters,
    [
      { name: 'days', in: 'query', required: true, schema: { type: 'number', minimum: 1, maximum: 90 } },
      { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['asc', 'desc'] } },
    ],
    "constraints on parameters (the framework's @Min/@Max, @Constraint with class-validator) show in their schema",
  );
  t.deepEqual(doc.paths['/public/contact'].post.requestBody, {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'number' } },
          required: ['name'],
        },
      },
    },
  });
  t.deepEqual(doc.paths['/public/health'].get.tags, ['status']);
  t.deepEqual(doc.paths['/public/health'].get.responses['200'].content, {
    'text/plain': { schema: { type: 'string' } },
  });
});

test('security: schemes from the auth decorators and the app provider, roles, public routes', (t) => {
  const doc: any = openApiDocument(buildApp().build(), { title: 'Bookings', version: '1' });
  t.deepEqual(doc.components.securitySchemes, {
    bearerAuth: { type: 'http', scheme: 'bearer' },
    basicAuth: { type: 'http', scheme: 'basic' },
  });
  t.deepEqual(doc.paths['/bookings/{id}'].get.security, [{ bearerAuth: [] }]);
  t.deepEqual(doc.paths['/bookings/{id}'].delete.security, [{ bearerAuth: ['admin'] }]);
  t.deepEqual(doc.paths['/admin/stats'].get.security, [{ basicAuth: [] }]);
  t.deepEqual(doc.paths['/public/health'].get.security, [], '@PermitAll: explicitly no security');
  t.truthy(doc.paths['/bookings/{id}'].get.responses['401']);
  t.is(doc.paths['/public/health'].get.responses['401'], undefined);
});

test('without security or validation decorators the document still validates; RestRouter apps too', (t) => {
  @Path('/plain')
  class Plain {
    @GET
    @Path('{n}')
    get(@PathParam('n') n: number, @QueryParam('flag', { optional: true }) flag?: boolean): { n: number } {
      return { n: flag ? n : -n };
    }
  }
  const app = RestRouter.register(loadUws().App(), Plain);
  const doc: any = openApiDocument(app, { title: 'Plain', version: '0.1.0' });
  const validate = oasValidator();
  t.true(validate(doc), JSON.stringify(validate.errors));
  t.is(doc.paths['/plain/{n}'].get.security, undefined);
  t.deepEqual(
    doc.paths['/plain/{n}'].get.parameters.map((p: any) => [p.name, p.schema.type, p.required]),
    [
      ['n', 'number', true],
      ['flag', 'boolean', false],
    ],
  );
  t.deepEqual(
    doc.paths['/plain/{n}'].get.responses['200'].content['application/json'].schema,
    {},
    'a plain object type says nothing more',
  );
  t.throws(() => openApiDocument(app, { title: '', version: '1' }), { message: /title must be a non-empty string/ });
});
