import type { Booking, CustomersDetails, InputFieldValue } from './booking';
import { BookingStatus, isCaptureOverdue, parseStatus } from './booking-status';
import { fromMinorUnits } from './money';
import type { BookingRow, StoredTicket } from '../storage/booking-repository';

/**
 * The booking as a partner sees it. An UNCAPTURED booking past its capture window reads as CAPTURE_TIMEOUT
 * at once, even in the instant before the sweep has written it.
 */
export function toBookingView(row: BookingRow, tickets: StoredTicket[], now: number): Booking {
  let status = parseStatus(row.status) ?? BookingStatus.UNCAPTURED;
  if (status === BookingStatus.UNCAPTURED && isCaptureOverdue(Number(row.created_at), now))
    status = BookingStatus.CAPTURE_TIMEOUT;
  return {
    bookingId: String(row.id),
    partnerReferenceId: row.partner_reference_id,
    variantId: row.variant_id,
    startDateTime: row.start_date_time,
    product: { id: row.product_id, name: row.product_name, variant: { id: row.variant_id, name: row.variant_name } },
    customersDetails: JSON.parse(row.customers_json) as CustomersDetails,
    variantInputFields: JSON.parse(row.variant_input_fields_json) as InputFieldValue[],
    price: {
      amount: fromMinorUnits(Number(row.price_amount_minor), row.currency_code),
      currencyCode: row.currency_code,
    },
    status,
    voucherUrl: row.voucher_url,
    tickets: tickets.map((ticket) => ({ publicId: ticket.publicId, url: ticket.url })),
    creationTimestamp: Math.floor(Number(row.created_at) / 1000),
  };
}
