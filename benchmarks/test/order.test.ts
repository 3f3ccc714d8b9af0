/** Scenario 3's body and the validation idioms the servers use agree with each other. */
import test from 'ava';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SAMPLE_ORDER, findOrderProblem } from '../src/contract/order';
import { OrderDto } from '../src/contract/order-dto';
import { arktypeOrder, valibotOrder, zodOrder } from '../src/contract/order-standard-schemas';

const invalidOrders: [string, unknown][] = [
  ['no items', { ...SAMPLE_ORDER, items: [] }],
  ['quantity 0', { ...SAMPLE_ORDER, items: [{ ...SAMPLE_ORDER.items[0], quantity: 0 }] }],
  ['fractional quantity', { ...SAMPLE_ORDER, items: [{ ...SAMPLE_ORDER.items[0], quantity: 1.5 }] }],
  ['lower-case sku', { ...SAMPLE_ORDER, items: [{ ...SAMPLE_ORDER.items[0], sku: 'book-1' }] }],
  ['negative price', { ...SAMPLE_ORDER, items: [{ ...SAMPLE_ORDER.items[0], unitPrice: -1 }] }],
  ['unknown currency', { ...SAMPLE_ORDER, currency: 'XXX' }],
  ['no shipping address', { ...SAMPLE_ORDER, shippingAddress: undefined }],
  ['three-letter country', { ...SAMPLE_ORDER, shippingAddress: { ...SAMPLE_ORDER.shippingAddress, country: 'GBR' } }],
  ['note too long', { ...SAMPLE_ORDER, note: 'x'.repeat(501) }],
  ['empty customer', { ...SAMPLE_ORDER, customerId: '' }],
];

const classValidatorErrors = (body: unknown) => validateSync(plainToInstance(OrderDto, body as object));

test('the posted order is 1 KB of JSON and valid', (t) => {
  t.is(Buffer.byteLength(JSON.stringify(SAMPLE_ORDER)), 1024);
  t.is(findOrderProblem(SAMPLE_ORDER), undefined);
  t.deepEqual(classValidatorErrors(SAMPLE_ORDER), []);
});

for (const [what, body] of invalidOrders) {
  test(`an order with ${what} is refused by the hand-written check and by class-validator`, (t) => {
    t.truthy(findOrderProblem(body));
    t.true(classValidatorErrors(body).length > 0);
  });
}

const standardSchemas = { zod: zodOrder, valibot: valibotOrder, arktype: arktypeOrder };

for (const [library, schema] of Object.entries(standardSchemas)) {
  test(`the ${library} order schema takes the posted order and refuses every invalid one`, (t) => {
    const ok = schema['~standard'].validate(SAMPLE_ORDER);
    t.false(ok instanceof Promise);
    t.is((ok as { issues?: unknown }).issues, undefined, JSON.stringify(ok));
    for (const [what, body] of invalidOrders) {
      const result = schema['~standard'].validate(body) as { issues?: readonly unknown[] };
      t.true((result.issues?.length ?? 0) > 0, `${library}: ${what}`);
    }
  });
}
