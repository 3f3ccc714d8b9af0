import type { BookingStatus } from './booking-status';

/** Shapes a partner sees, with the spec's exact field names. */
export interface InputFieldValue {
  id: string;
  name: string;
  value: string;
}

export interface Customer {
  personType: string;
  isPrimary: boolean;
  inputFields: InputFieldValue[];
}

export interface CustomersDetails {
  count: number;
  customers: Customer[];
}

export interface Price {
  amount: number;
  currencyCode: string;
}

export interface Ticket {
  publicId: string;
  url: string;
}

export interface Booking {
  bookingId: string;
  partnerReferenceId: string | null;
  variantId: string;
  startDateTime: string;
  product: { id: string; name: string; variant: { id: string; name: string } };
  customersDetails: CustomersDetails;
  variantInputFields: InputFieldValue[];
  price: Price;
  status: BookingStatus;
  /** null until fulfilment has issued the voucher. */
  voucherUrl: string | null;
  tickets: Ticket[];
  /** Unix epoch seconds. */
  creationTimestamp: number;
}

/** Response of the deprecated POST /booking/create. */
export interface BookingCreateResponse {
  itineraryId: string;
  price: Price;
}

export interface PaginationWrapper<T> {
  items: T[];
  nextUrl: string | null;
  prevUrl: string | null;
  total: number;
  nextOffset: number | null;
}
