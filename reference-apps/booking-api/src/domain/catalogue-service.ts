import type { Clock } from 'app-support';
import { BookingError } from './booking-error';
import type { InputFieldDefinition, InventorySlot, Product, Variant } from './catalogue';
import { fromMinorUnits } from './money';
import { addDays, isLocalDateTime, localDateTimeAt } from './local-date-time';
import { API_PREFIX, pageOf, parsePaging } from './pagination';
import type { PaginationWrapper } from './booking';
import type { CatalogueRepository, StoredSlot } from '../storage/catalogue-repository';
import type { BookingRepository } from '../storage/booking-repository';
import { CAPTURE_WINDOW_MS } from './booking-status';

export interface InventoryQuery {
  variantId?: string;
  startDateTime?: string;
  endDateTime?: string;
  offset?: string;
  limit?: string;
}

/** Read side of the catalogue: products with variants, and inventory slots with remaining seats and prices. */
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly bookings: BookingRepository,
    private readonly clock: Clock,
  ) {}

  async listProducts(): Promise<Product[]> {
    const products = await this.catalogue.listProducts();
    return this.withVariants(products);
  }

  async getProduct(id: string): Promise<Product> {
    const product = await this.catalogue.findProduct(id);
    if (!product) throw BookingError.notFound('Product', id);
    const [withVariants] = await this.withVariants([product]);
    return withVariants;
  }

  async getVariant(id: string): Promise<{ product: Omit<Product, 'variants'>; variant: Variant } | undefined> {
    const variant = await this.catalogue.findVariant(id);
    if (!variant) return undefined;
    const product = await this.catalogue.findProduct(variant.product_id);
    if (!product) return undefined;
    const fields = await this.catalogue.listInputFields([variant.id]);
    return { product, variant: toVariant(variant, fields.map(toFieldDefinition)) };
  }

  /**
   * Slots of a variant, by start time; by default from now (in the product's zone) for 30 days.
   * Overdue uncaptured bookings of the listed slots are timed out first, so `remaining` is current.
   */
  async listInventory(query: InventoryQuery, baseUrl: string): Promise<PaginationWrapper<InventorySlot>> {
    if (!query.variantId) throw BookingError.missing('variantId');
    const found = await this.getVariant(query.variantId);
    if (!found) throw BookingError.notFound('Variant', query.variantId);
    for (const [name, value] of [
      ['startDateTime', query.startDateTime],
      ['endDateTime', query.endDateTime],
    ] as const) {
      if (value !== undefined && !isLocalDateTime(value))
        throw BookingError.invalid(name, `expected YYYY-MM-DDTHH:MM:SS, got "${value}"`);
    }
    const from = query.startDateTime ?? localDateTimeAt(this.clock.now(), found.product.timezone);
    const to = query.endDateTime ?? `${addDays(from, 30)}T00:00:00`;
    const paging = parsePaging(query.offset, query.limit);
    const now = this.clock.now();
    await this.bookings.expireOverdue(now - CAPTURE_WINDOW_MS, now, { variantId: query.variantId });
    const { slots, total } = await this.catalogue.listSlots(query.variantId, from, to, paging.offset, paging.limit);
    const filters: Record<string, string> = { variantId: query.variantId, startDateTime: from, endDateTime: to };
    return pageOf(slots.map(toInventorySlot), paging, total, `${baseUrl}${API_PREFIX}/inventory`, filters);
  }

  private async withVariants(products: Omit<Product, 'variants'>[]): Promise<Product[]> {
    const variants = await this.catalogue.listVariants(products.map((product) => product.id));
    const fields = await this.catalogue.listInputFields(variants.map((variant) => variant.id));
    return products.map((product) => ({
      ...product,
      variants: variants
        .filter((variant) => variant.product_id === product.id)
        .map((variant) =>
          toVariant(variant, fields.filter((field) => field.variant_id === variant.id).map(toFieldDefinition)),
        ),
    }));
  }
}

function toFieldDefinition(row: {
  id: string;
  name: string;
  applies_to: string;
  data_type: string;
  required: number;
}): InputFieldDefinition {
  return {
    id: row.id,
    name: row.name,
    appliesTo: row.applies_to as InputFieldDefinition['appliesTo'],
    dataType: row.data_type as InputFieldDefinition['dataType'],
    required: Boolean(row.required),
  };
}

function toVariant(
  row: { id: string; product_id: string; name: string; currency_code: string; duration_minutes: number | null },
  inputFields: InputFieldDefinition[],
): Variant {
  return {
    id: row.id,
    productId: row.product_id,
    name: row.name,
    currencyCode: row.currency_code,
    durationMinutes: row.duration_minutes,
    priceType: 'PER_PERSON',
    inputFields,
  };
}

export function toInventorySlot(slot: StoredSlot): InventorySlot {
  return {
    id: slot.id,
    variantId: slot.variantId,
    startDateTime: slot.startDateTime,
    endDateTime: slot.endDateTime,
    availability: slot.remaining === null ? 'UNLIMITED' : slot.remaining > 0 ? 'LIMITED' : 'CLOSED',
    remaining: slot.remaining,
    currencyCode: slot.currencyCode,
    pricing: {
      persons: slot.prices.map((price) => ({
        type: price.person_type,
        name: price.name,
        ageFrom: price.age_from,
        ageTo: price.age_to,
        price: fromMinorUnits(Number(price.amount_minor), slot.currencyCode),
      })),
    },
  };
}
