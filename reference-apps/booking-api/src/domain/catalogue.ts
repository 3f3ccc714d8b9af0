/** Catalogue shapes a partner reads before booking (modelled on the partner API's product and inventory models). */
export type InputFieldScope = 'PRIMARY_CUSTOMER' | 'EVERY_CUSTOMER' | 'VARIANT';
export type InputFieldType = 'TEXT' | 'EMAIL' | 'PHONE' | 'INTEGER';

export interface InputFieldDefinition {
  id: string;
  name: string;
  appliesTo: InputFieldScope;
  dataType: InputFieldType;
  required: boolean;
}

export interface Variant {
  id: string;
  productId: string;
  name: string;
  currencyCode: string;
  durationMinutes: number | null;
  /** Only per-person pricing is offered by this service. */
  priceType: 'PER_PERSON';
  inputFields: InputFieldDefinition[];
}

export interface Product {
  id: string;
  name: string;
  city: string;
  description: string;
  timezone: string;
  variants: Variant[];
}

export interface PersonPrice {
  type: string;
  name: string;
  ageFrom: number | null;
  ageTo: number | null;
  price: number;
}

export interface InventorySlot {
  id: string;
  variantId: string;
  startDateTime: string;
  endDateTime: string | null;
  availability: 'LIMITED' | 'UNLIMITED' | 'CLOSED';
  /** Seats left; null when unlimited. */
  remaining: number | null;
  currencyCode: string;
  pricing: { persons: PersonPrice[] };
}
