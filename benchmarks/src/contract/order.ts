/**
 * Scenario 3's order: its shape, the validation rules every server applies (each in its own idiom:
 * class-validator, JSON schema, or the hand-written check below), and the 1 KB sample body.
 */

export const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
export const SKU_PATTERN = /^[A-Z0-9-]{1,32}$/;
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;
export const MAX_ITEMS = 100;
export const MAX_QUANTITY = 1000;
export const MAX_UNIT_PRICE = 1_000_000;
export const MAX_NOTE_LENGTH = 500;

export interface OrderItem {
  sku: string;
  quantity: number;
  unitPrice: number;
}

export interface ShippingAddress {
  name: string;
  street: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface Order {
  customerId: string;
  currency: (typeof CURRENCIES)[number];
  items: OrderItem[];
  shippingAddress: ShippingAddress;
  note: string;
}

/** The body the load generator posts: 1 KB of JSON (checked by the harness test). */
export const SAMPLE_ORDER: Order = {
  customerId: 'c-7d41f0a2-93be-4c55-b1e8-0f6a2d9c3e71',
  currency: 'EUR',
  items: [
    { sku: 'BOOK-0001', quantity: 1, unitPrice: 12.5 },
    { sku: 'BOOK-0002', quantity: 2, unitPrice: 8.99 },
    { sku: 'PEN-0420', quantity: 10, unitPrice: 0.75 },
    { sku: 'NOTE-0077', quantity: 3, unitPrice: 4.2 },
    { sku: 'BAG-1200', quantity: 1, unitPrice: 39 },
    { sku: 'MUG-0031', quantity: 2, unitPrice: 9.5 },
    { sku: 'CARD-2024', quantity: 5, unitPrice: 2.1 },
    { sku: 'LAMP-0900', quantity: 1, unitPrice: 54.9 },
    { sku: 'INK-0003', quantity: 4, unitPrice: 6.45 },
    { sku: 'CLIP-0100', quantity: 20, unitPrice: 0.05 },
    { sku: 'TAPE-0012', quantity: 2, unitPrice: 3.3 },
    { sku: 'STAMP-0500', quantity: 12, unitPrice: 1.15 },
  ],
  shippingAddress: {
    name: 'Ada Lovelace',
    street: '12 St James Square',
    city: 'London',
    postalCode: 'SW1Y 4JH',
    country: 'GB',
  },
  note:
    'Please leave the parcel with the concierge if nobody answers the door. Gift wrap the mug and the lamp ' +
    'separately, and put the card with the books. Invoice to the company address on file, not to this one, thanks.',
};

function isString(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The hand-written validation used where a framework has no validation idiom of its own
 * (raw uWebSockets.js, Express, hyper-express, ultimate-express). Returns what is wrong, or undefined.
 */
export function findOrderProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'body must be a JSON object';
  if (!isString(body.customerId, 1, 64)) return 'customerId must be a string of 1 to 64 characters';
  if (!CURRENCIES.includes(body.currency as Order['currency']))
    return `currency must be one of ${CURRENCIES.join(', ')}`;
  const items = body.items;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ITEMS)
    return `items must be an array of 1 to ${MAX_ITEMS} items`;
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isObject(item)) return `items[${i}] must be an object`;
    if (typeof item.sku !== 'string' || !SKU_PATTERN.test(item.sku)) return `items[${i}].sku must match ${SKU_PATTERN}`;
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1 || (item.quantity as number) > MAX_QUANTITY)
      return `items[${i}].quantity must be an integer from 1 to ${MAX_QUANTITY}`;
    if (typeof item.unitPrice !== 'number' || item.unitPrice < 0 || item.unitPrice > MAX_UNIT_PRICE)
      return `items[${i}].unitPrice must be a number from 0 to ${MAX_UNIT_PRICE}`;
  }
  const address = body.shippingAddress;
  if (!isObject(address)) return 'shippingAddress must be an object';
  if (!isString(address.name, 1, 100)) return 'shippingAddress.name must be a string of 1 to 100 characters';
  if (!isString(address.street, 1, 200)) return 'shippingAddress.street must be a string of 1 to 200 characters';
  if (!isString(address.city, 1, 100)) return 'shippingAddress.city must be a string of 1 to 100 characters';
  if (!isString(address.postalCode, 1, 16)) return 'shippingAddress.postalCode must be a string of 1 to 16 characters';
  if (typeof address.country !== 'string' || !COUNTRY_PATTERN.test(address.country))
    return 'shippingAddress.country must be two capital letters';
  if (!isString(body.note, 0, MAX_NOTE_LENGTH)) return `note must be a string of at most ${MAX_NOTE_LENGTH} characters`;
  return undefined;
}
