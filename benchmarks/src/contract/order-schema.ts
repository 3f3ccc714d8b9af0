/** Scenario 3's order as JSON schema: Fastify's validation idiom. Same rules as `findOrderProblem` in order.ts. */
import {
  COUNTRY_PATTERN,
  CURRENCIES,
  MAX_ITEMS,
  MAX_NOTE_LENGTH,
  MAX_QUANTITY,
  MAX_UNIT_PRICE,
  SKU_PATTERN,
} from './order';

const orderItemSchema = {
  type: 'object',
  required: ['sku', 'quantity', 'unitPrice'],
  properties: {
    sku: { type: 'string', pattern: SKU_PATTERN.source },
    quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY },
    unitPrice: { type: 'number', minimum: 0, maximum: MAX_UNIT_PRICE },
  },
} as const;

const shippingAddressSchema = {
  type: 'object',
  required: ['name', 'street', 'city', 'postalCode', 'country'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    street: { type: 'string', minLength: 1, maxLength: 200 },
    city: { type: 'string', minLength: 1, maxLength: 100 },
    postalCode: { type: 'string', minLength: 1, maxLength: 16 },
    country: { type: 'string', pattern: COUNTRY_PATTERN.source },
  },
} as const;

export const orderSchema = {
  type: 'object',
  required: ['customerId', 'currency', 'items', 'shippingAddress', 'note'],
  properties: {
    customerId: { type: 'string', minLength: 1, maxLength: 64 },
    currency: { type: 'string', enum: [...CURRENCIES] },
    items: { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: orderItemSchema },
    shippingAddress: shippingAddressSchema,
    note: { type: 'string', maxLength: MAX_NOTE_LENGTH },
  },
} as const;
