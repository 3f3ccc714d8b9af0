import type { Booking, Ticket } from '../../domain/booking';
import { escapeHtml, formatLocalDateTime, htmlPage } from './html';

/** One ticket: scanned at the entrance, so its id is large and the rest is context. */
export function ticketPage(ticket: Ticket, booking: Booking): string {
  const { product } = booking;
  const position = booking.tickets.findIndex((candidate) => candidate.publicId === ticket.publicId) + 1;
  const variant = product.variant.name ? ` · ${escapeHtml(product.variant.name)}` : '';
  return htmlPage(
    `Ticket ${position} of ${booking.tickets.length} for ${product.name}`,
    `<h1>${escapeHtml(product.name)}${variant}</h1>
<p>Ticket ${position} of ${booking.tickets.length} · booking ${escapeHtml(booking.bookingId)}</p>
<p><code id="ticket-id" style="font-size:1.4rem">${escapeHtml(ticket.publicId)}</code></p>
<dl>
<dt>Starts</dt><dd id="start">${escapeHtml(formatLocalDateTime(booking.startDateTime))} (local time)</dd>
<dt>Status</dt><dd id="status">${escapeHtml(booking.status)}</dd>
</dl>`,
  );
}
