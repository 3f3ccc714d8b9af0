import type { Generated } from 'kysely';

/**
 * Tables of the booking service. Money is stored in minor units (integer cents, yen...) so sums are exact;
 * times are epoch milliseconds; booleans are 0/1 integers (SQLite has no boolean type).
 */
export interface BookingSchema {
  partner: PartnerTable;
  api_key: ApiKeyTable;
  product: ProductTable;
  variant: VariantTable;
  input_field: InputFieldTable;
  inventory_slot: InventorySlotTable;
  slot_price: SlotPriceTable;
  booking: BookingTable;
  ticket: TicketTable;
}

export interface PartnerTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeyTable {
  id: string;
  partner_id: string;
  key_hash: string;
  /** The key's first characters, enough to recognise it in a list, never enough to use it. */
  key_hint: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ProductTable {
  id: string;
  name: string;
  city: string;
  description: string;
  /** IANA zone the local start times are in (used to refuse slots that have already started). */
  timezone: string;
}

export interface VariantTable {
  id: string;
  product_id: string;
  /** May be empty for a product's default variant, as in the partner API. */
  name: string;
  currency_code: string;
  duration_minutes: number | null;
}

/** applies_to: PRIMARY_CUSTOMER (only the primary), EVERY_CUSTOMER, or VARIANT (variantInputFields). */
export interface InputFieldTable {
  variant_id: string;
  id: string;
  name: string;
  applies_to: 'PRIMARY_CUSTOMER' | 'EVERY_CUSTOMER' | 'VARIANT';
  data_type: 'TEXT' | 'EMAIL' | 'PHONE' | 'INTEGER';
  required: number;
  position: number;
}

export interface InventorySlotTable {
  id: string;
  variant_id: string;
  /** Local date-time without zone, YYYY-MM-DDTHH:MM:SS (sorts as text). */
  start_date_time: string;
  end_date_time: string | null;
  /** null = unlimited availability. */
  capacity: number | null;
  remaining: number | null;
  currency_code: string;
}

export interface SlotPriceTable {
  slot_id: string;
  person_type: string;
  name: string;
  age_from: number | null;
  age_to: number | null;
  amount_minor: number;
  position: number;
}

export interface BookingTable {
  id: Generated<number>;
  partner_id: string;
  partner_reference_id: string | null;
  variant_id: string;
  inventory_id: string;
  product_id: string;
  product_name: string;
  variant_name: string;
  start_date_time: string;
  /** JSON of customersDetails as answered (with field names), so the booking reads the same after catalogue edits. */
  customers_json: string;
  variant_input_fields_json: string;
  seats: number;
  price_amount_minor: number;
  currency_code: string;
  status: string;
  voucher_token: string;
  voucher_url: string | null;
  created_at: number;
  captured_at: number | null;
  completed_at: number | null;
  timed_out_at: number | null;
}

export interface TicketTable {
  public_id: string;
  booking_id: number;
  url: string;
  position: number;
}
