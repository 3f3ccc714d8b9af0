import type { Kysely } from 'kysely';
import type { BookingSchema, InputFieldTable, SlotPriceTable } from './schema';

/** What the catalogue stores; amounts in minor units. Used by the seed, tests and an import. */
export interface NewProduct {
  id: string;
  name: string;
  city: string;
  description: string;
  timezone: string;
  variants: {
    id: string;
    name: string;
    currencyCode: string;
    durationMinutes: number | null;
    inputFields: Omit<InputFieldTable, 'variant_id'>[];
  }[];
}

export interface NewSlot {
  id: string;
  variantId: string;
  startDateTime: string;
  endDateTime: string | null;
  capacity: number | null;
  currencyCode: string;
  prices: Omit<SlotPriceTable, 'slot_id'>[];
}

export interface StoredSlot {
  id: string;
  variantId: string;
  startDateTime: string;
  endDateTime: string | null;
  capacity: number | null;
  remaining: number | null;
  currencyCode: string;
  prices: Omit<SlotPriceTable, 'slot_id'>[];
}

export class CatalogueRepository {
  constructor(private readonly db: Kysely<BookingSchema>) {}

  /** Inserts a product with its variants and fields; an existing id is left as it is (the seed may run on several instances at once). */
  async insertProduct(product: NewProduct): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const { variants, ...row } = product;
      await trx
        .insertInto('product')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const variant of variants) {
        await trx
          .insertInto('variant')
          .values({
            id: variant.id,
            product_id: product.id,
            name: variant.name,
            currency_code: variant.currencyCode,
            duration_minutes: variant.durationMinutes,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        for (const field of variant.inputFields) {
          await trx
            .insertInto('input_field')
            .values({ ...field, variant_id: variant.id })
            .onConflict((oc) => oc.columns(['variant_id', 'applies_to', 'id']).doNothing())
            .execute();
        }
      }
    });
  }

  /** Inserts a slot with its prices; true when it was new. */
  async insertSlot(slot: NewSlot): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('inventory_slot')
        .values({
          id: slot.id,
          variant_id: slot.variantId,
          start_date_time: slot.startDateTime,
          end_date_time: slot.endDateTime,
          capacity: slot.capacity,
          remaining: slot.capacity,
          currency_code: slot.currencyCode,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      for (const price of slot.prices) {
        await trx
          .insertInto('slot_price')
          .values({ ...price, slot_id: slot.id })
          .execute();
      }
      return true;
    });
  }

  async countProducts(): Promise<number> {
    const row = await this.db
      .selectFrom('product')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listProducts() {
    return this.db.selectFrom('product').selectAll().orderBy('id').execute();
  }

  async findProduct(id: string) {
    return this.db.selectFrom('product').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listVariants(productIds: string[]) {
    if (productIds.length === 0) return [];
    return this.db.selectFrom('variant').selectAll().where('product_id', 'in', productIds).orderBy('id').execute();
  }

  async findVariant(id: string) {
    return this.db.selectFrom('variant').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listInputFields(variantIds: string[]) {
    if (variantIds.length === 0) return [];
    return this.db
      .selectFrom('input_field')
      .selectAll()
      .where('variant_id', 'in', variantIds)
      .orderBy('variant_id')
      .orderBy('position')
      .execute();
  }

  async findSlot(id: string): Promise<StoredSlot | undefined> {
    const row = await this.db.selectFrom('inventory_slot').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const [slot] = await this.attachPrices([row]);
    return slot;
  }

  /** Slots of a variant starting within [from, to) (local date-times), by start time. */
  async listSlots(
    variantId: string,
    from: string,
    to: string,
    offset: number,
    limit: number,
  ): Promise<{ slots: StoredSlot[]; total: number }> {
    const base = this.db
      .selectFrom('inventory_slot')
      .where('variant_id', '=', variantId)
      .where('start_date_time', '>=', from)
      .where('start_date_time', '<', to);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('start_date_time').orderBy('id').offset(offset).limit(limit).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { slots: await this.attachPrices(rows), total: Number(count.n) };
  }

  private async attachPrices(rows: BookingSchema['inventory_slot'][]): Promise<StoredSlot[]> {
    if (rows.length === 0) return [];
    const prices = await this.db
      .selectFrom('slot_price')
      .selectAll()
      .where(
        'slot_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('slot_id')
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      variantId: row.variant_id,
      startDateTime: row.start_date_time,
      endDateTime: row.end_date_time,
      capacity: row.capacity,
      remaining: row.remaining,
      currencyCode: row.currency_code,
      prices: prices.filter((price) => price.slot_id === row.id).map(({ slot_id: _slot, ...price }) => price),
    }));
  }
}
