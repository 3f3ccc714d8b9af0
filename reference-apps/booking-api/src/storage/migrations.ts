import { sql } from 'kysely';
import type { AppMigration } from 'app-support';

/** Schema steps, applied in name order on every start (see migrateToLatest). Never edit a released step: add one. */
export const bookingMigrations: Record<string, AppMigration> = {
  '0001_partners_and_keys': {
    async up(db) {
      await db.schema
        .createTable('partner')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_key')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('partner_id', 'text', (c) => c.notNull().references('partner.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
    },
  },
  '0002_catalogue': {
    async up(db) {
      await db.schema
        .createTable('product')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('variant')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('product_id', 'text', (c) => c.notNull().references('product.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('duration_minutes', 'integer')
        .execute();
      await db.schema.createIndex('variant_by_product').on('variant').column('product_id').execute();
      await db.schema
        .createTable('input_field')
        .addColumn('variant_id', 'text', (c) => c.notNull().references('variant.id'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('applies_to', 'text', (c) => c.notNull())
        .addColumn('data_type', 'text', (c) => c.notNull())
        .addColumn('required', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('input_field_pk', ['variant_id', 'applies_to', 'id'])
        .execute();
      await db.schema
        .createTable('inventory_slot')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('variant_id', 'text', (c) => c.notNull().references('variant.id'))
        .addColumn('start_date_time', 'text', (c) => c.notNull())
        .addColumn('end_date_time', 'text')
        .addColumn('capacity', 'integer')
        .addColumn('remaining', 'integer')
        .addColumn('currency_code', 'text', (c) => c.notNull())
        // The last line of defence against overselling, whatever the code does.
        .addCheckConstraint('remaining_not_negative', sql`remaining is null or remaining >= 0`)
        .execute();
      await db.schema
        .createIndex('slot_by_variant_start')
        .on('inventory_slot')
        .columns(['variant_id', 'start_date_time'])
        .execute();
      await db.schema
        .createTable('slot_price')
        .addColumn('slot_id', 'text', (c) => c.notNull().references('inventory_slot.id'))
        .addColumn('person_type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('age_from', 'integer')
        .addColumn('age_to', 'integer')
        .addColumn('amount_minor', 'bigint', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('slot_price_pk', ['slot_id', 'person_type'])
        .execute();
    },
  },
  '0003_bookings': {
    async up(db, dialect) {
      await db.schema
        .createTable('booking')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('partner_id', 'text', (c) => c.notNull().references('partner.id'))
        .addColumn('partner_reference_id', 'text')
        .addColumn('variant_id', 'text', (c) => c.notNull())
        .addColumn('inventory_id', 'text', (c) => c.notNull().references('inventory_slot.id'))
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('product_name', 'text', (c) => c.notNull())
        .addColumn('variant_name', 'text', (c) => c.notNull())
        .addColumn('start_date_time', 'text', (c) => c.notNull())
        .addColumn('customers_json', 'text', (c) => c.notNull())
        .addColumn('variant_input_fields_json', 'text', (c) => c.notNull())
        .addColumn('seats', 'integer', (c) => c.notNull())
        .addColumn('price_amount_minor', 'bigint', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('voucher_token', 'text', (c) => c.notNull().unique())
        .addColumn('voucher_url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('captured_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addColumn('timed_out_at', 'bigint')
        .execute();
      await db.schema.createIndex('booking_by_partner').on('booking').columns(['partner_id', 'id']).execute();
      // The timeout sweep and the fulfilment worker look bookings up by status and age.
      await db.schema
        .createIndex('booking_by_status_created')
        .on('booking')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema
        .createTable('ticket')
        .addColumn('public_id', 'text', (c) => c.primaryKey())
        .addColumn('booking_id', 'bigint', (c) => c.notNull().references('booking.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_by_booking').on('ticket').column('booking_id').execute();
    },
  },
};
