import type { Booking } from '../../domain/booking';
import { formatMoney, toMinorUnits } from '../../domain/money';
import { escapeHtml, formatLocalDateTime, htmlPage } from './html';

/** The voucher a customer shows at the venue: what was booked, for whom, and one link per ticket. */
export function voucherPage(booking: Booking): string {
  const { product } = booking;
  const title = `Voucher for ${product.name}`;
  const primary = booking.customersDetails.customers.find((customer) => customer.isPrimary);
  const leadName = primary?.inputFields.find((field) => field.id === 'name')?.value;
  const customers = booking.customersDetails.customers
    .map((customer) => `<li>${escapeHtml(customer.personType)}${customer.isPrimary ? ' (lead)' : ''}</li>`)
    .join('\n');
  const tickets = booking.tickets
    .map(
      (ticket, index) =>
        `<li><a href="${escapeHtml(ticket.url)}">Ticket ${index + 1}</a> <code>${escapeHtml(ticket.publicId)}</code></li>`,
    )
    .join('\n');
  const variant = product.variant.name ? ` · ${escapeHtml(product.variant.name)}` : '';
  const price = formatMoney(
    toMinorUnits(booking.price.amount, booking.price.currencyCode) ?? 0,
    booking.price.currencyCode,
  );
  return htmlPage(
    title,
    `<h1>${escapeHtml(product.name)}${variant}</h1>
<p>Booking <strong id="booking-id">${escapeHtml(booking.bookingId)}</strong> · <span id="status">${escapeHtml(booking.status)}</span></p>
<dl>
<dt>Starts</dt><dd id="start">${escapeHtml(formatLocalDateTime(booking.startDateTime))} (local time)</dd>
${leadName ? `<dt>Lead customer</dt><dd id="lead">${escapeHtml(leadName)}</dd>` : ''}
<dt>Guests</dt><dd>${booking.customersDetails.count}</dd>
<dt>Price</dt><dd id="price">${escapeHtml(price)}</dd>
${booking.partnerReferenceId ? `<dt>Reference</dt><dd>${escapeHtml(booking.partnerReferenceId)}</dd>` : ''}
</dl>
<h2>Guests</h2>
<ul id="customers">
${customers}
</ul>
<h2>Tickets</h2>
<ul id="tickets">
${tickets}
</ul>`,
  );
}
