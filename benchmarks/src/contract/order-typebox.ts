/** Scenario 3's order as TypeBox schemas (Elysia's `t`): Elysia's validation idiom. Same rules as order-schema.ts. */
import { t } from 'elysia';
import {
  COUNTRY_PATTERN,
  CURRENCIES,
  MAX_ITEMS,
  MAX_NOTE_LENGTH,
  MAX_QUANTITY,
  MAX_UNIT_PRICE,
  SKU_PATTERN,
} from './order';

const orderItem = t.Object({
  sku: t.String({ pattern: SKU_PATTERN.source }),
  quantity: t.Integer({ minimum: 1, maximum: MAX_QUANTITY }),
  unitPrice: t.Number({ minimum: 0, maximum: MAX_UNIT_PRICE }),
});

const shippingAddress = t.Object({
  name: t.String({ minLength: 1, maxLength: 100 }),
  street: t.String({ minLength: 1, maxLength: 200 }),
  city: t.String({ minLength: 1, maxLength: 100 }),
  postalCode: t.String({ minLength: 1, maxLength: 16 }),
  country: t.String({ pattern: COUNTRY_PATTERN.source }),
});

export const orderTypeBox = t.Object({
  customerId: t.String({ minLength: 1, maxLength: 64 }),
  currency: t.Union(CURRENCIES.map((currency) => t.Literal(currency))),
  items: t.Array(orderItem, { minItems: 1, maxItems: MAX_ITEMS }),
  shippingAddress,
  note: t.String({ maxLength: MAX_NOTE_LENGTH }),
});
