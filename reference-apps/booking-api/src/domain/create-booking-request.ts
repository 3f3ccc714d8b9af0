import { RequestReader } from './request-reader';
import { BookingError } from './booking-error';

/** Most customers one booking may carry (a guard against absurd requests, not a business rule of the spec). */
export const MAX_CUSTOMERS_PER_BOOKING = 50;

export interface InputFieldAnswer {
  id: string;
  value: string;
}

export interface CreateBookingRequest {
  variantId: string;
  inventoryId: string;
  customersDetails: {
    count: number;
    /** Only PER_PERSON pricing is offered; accepted for the deprecated create. */
    priceType?: string;
    customers: { personType: string; isPrimary: boolean; inputFields: InputFieldAnswer[] }[];
  };
  variantInputFields: InputFieldAnswer[];
  price: { amount: number; currencyCode: string };
}

function readAnswers(reader: RequestReader): InputFieldAnswer[] {
  return reader.array({ optional: true }).map((item) => {
    item.object();
    return {
      id: item.field('id').string({ allowNumber: true, maxLength: 100 }),
      value: item.field('value').string({ allowNumber: true }),
    };
  });
}

/**
 * A create body from a caller that has not checked it (the HTTP layer checks its own with the DTO and calls
 * BookingService.book): its shape (types, required fields, lengths), then the customer rules; catalogue rules come later.
 */
export function parseCreateBookingRequest(body: unknown): CreateBookingRequest {
  const root = RequestReader.root(body);
  const variantId = root.field('variantId').string({ allowNumber: true, maxLength: 100 });
  const inventoryId = root.field('inventoryId').string({ allowNumber: true, maxLength: 100 });

  const details = root.field('customersDetails').object();
  const customerReaders = details.field('customers').array({ maxItems: MAX_CUSTOMERS_PER_BOOKING });
  const count = details.field('count').integer(1, MAX_CUSTOMERS_PER_BOOKING);
  const priceType = details.field('priceType').optionalString({ maxLength: 40 });
  const customers = customerReaders.map((customer) => {
    customer.object();
    return {
      personType: customer.field('personType').string({ maxLength: 40 }),
      isPrimary: customer.field('isPrimary').boolean(false),
      inputFields: readAnswers(customer.field('inputFields')),
    };
  });
  const customersDetails = { count, ...(priceType !== undefined ? { priceType } : {}), customers };
  checkCustomers(customersDetails);

  const price = root.field('price').object();
  return {
    variantId,
    inventoryId,
    customersDetails,
    variantInputFields: readAnswers(root.field('variantInputFields')),
    price: {
      amount: price.field('amount').number(),
      currencyCode: price.field('currencyCode').string({ maxLength: 10 }),
    },
  };
}

/**
 * The customer rules of a booking of any origin: a price type given is not blank, at least one customer, `count` says
 * how many, exactly one primary.
 */
export function checkCustomers(details: CreateBookingRequest['customersDetails']): void {
  const { count, customers } = details;
  if (details.priceType !== undefined && details.priceType.trim() === '')
    throw BookingError.missing('customersDetails.priceType');
  if (customers.length === 0)
    throw BookingError.invalid('customersDetails.customers', 'at least one customer is required');
  if (count !== customers.length) {
    throw BookingError.invalid(
      'customersDetails.count',
      `count is ${count} but ${customers.length} customer(s) were given`,
    );
  }
  const primaries = customers.filter((customer) => customer.isPrimary).length;
  if (primaries !== 1) {
    throw BookingError.invalid(
      'customersDetails.customers',
      `exactly one customer must have isPrimary true, found ${primaries}`,
    );
  }
}
