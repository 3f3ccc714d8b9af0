/**
 * Scenario 3's order as Standard Schemas of Zod 4, Valibot and ArkType: the validation idiom of teams that share
 * their schemas with the front end (`@Valid(schema)` in rest.uws). Same rules as `findOrderProblem` in order.ts.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  COUNTRY_PATTERN,
  CURRENCIES,
  MAX_ITEMS,
  MAX_NOTE_LENGTH,
  MAX_QUANTITY,
  MAX_UNIT_PRICE,
  SKU_PATTERN,
} from './order';

export const zodOrder = z.object({
  customerId: z.string().min(1).max(64),
  currency: z.enum(CURRENCIES),
  items: z
    .array(
      z.object({
        sku: z.string().regex(SKU_PATTERN),
        quantity: z.number().int().min(1).max(MAX_QUANTITY),
        unitPrice: z.number().min(0).max(MAX_UNIT_PRICE),
      }),
    )
    .min(1)
    .max(MAX_ITEMS),
  shippingAddress: z.object({
    name: z.string().min(1).max(100),
    street: z.string().min(1).max(200),
    city: z.string().min(1).max(100),
    postalCode: z.string().min(1).max(16),
    country: z.string().regex(COUNTRY_PATTERN),
  }),
  note: z.string().max(MAX_NOTE_LENGTH),
});

const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));

export const valibotOrder = v.object({
  customerId: text(1, 64),
  currency: v.picklist(CURRENCIES),
  items: v.pipe(
    v.array(
      v.object({
        sku: v.pipe(v.string(), v.regex(SKU_PATTERN)),
        quantity: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_QUANTITY)),
        unitPrice: v.pipe(v.number(), v.minValue(0), v.maxValue(MAX_UNIT_PRICE)),
      }),
    ),
    v.minLength(1),
    v.maxLength(MAX_ITEMS),
  ),
  shippingAddress: v.object({
    name: text(1, 100),
    street: text(1, 200),
    city: text(1, 100),
    postalCode: text(1, 16),
    country: v.pipe(v.string(), v.regex(COUNTRY_PATTERN)),
  }),
  note: v.pipe(v.string(), v.maxLength(MAX_NOTE_LENGTH)),
});

const arkItem = type({
  sku: SKU_PATTERN,
  quantity: `1 <= number.integer <= ${MAX_QUANTITY}`,
  unitPrice: `0 <= number <= ${MAX_UNIT_PRICE}`,
});

export const arktypeOrder = type({
  customerId: '1 <= string <= 64',
  currency: type.enumerated(...CURRENCIES),
  items: arkItem.array().atLeastLength(1).atMostLength(MAX_ITEMS),
  shippingAddress: {
    name: '1 <= string <= 100',
    street: '1 <= string <= 200',
    city: '1 <= string <= 100',
    postalCode: '1 <= string <= 16',
    country: COUNTRY_PATTERN,
  },
  note: `string <= ${MAX_NOTE_LENGTH}`,
});
