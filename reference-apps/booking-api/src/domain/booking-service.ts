import crypto from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import type { Clock } from 'app-support';
import { appTracer, inSpan } from 'app-support/telemetry';
import type { Booking, BookingCreateResponse, Customer, PaginationWrapper } from './booking';
import { BookingError, ErrorCode } from './booking-error';
import { BookingStatus, CAPTURE_WINDOW_MS, isCaptureOverdue } from './booking-status';
import { checkCustomers, parseCreateBookingRequest, type CreateBookingRequest } from './create-booking-request';
import { captureRequestOf, parseCaptureRequest, type CaptureFields, type CaptureRequest } from './capture-request';
import { answerFields, customerFieldDefinitions } from './input-fields';
import { formatMoney, isCurrencyCode, toMinorUnits } from './money';
import { localDateTimeAt } from './local-date-time';
import { API_PREFIX, pageOf, parsePaging } from './pagination';
import type { Partner } from './partner';
import { toBookingView } from './booking-view';
import type { CatalogueService } from './catalogue-service';
import type { BookingRepository, BookingRow } from '../storage/booking-repository';
import type { CatalogueRepository, StoredSlot } from '../storage/catalogue-repository';

export interface BookingServiceOptions {
  bookings: BookingRepository;
  catalogueRepository: CatalogueRepository;
  catalogue: CatalogueService;
  clock: Clock;
  /** Told after a capture so fulfilment starts without waiting for its next round. */
  onCaptured?: () => void;
}

/** The booking rules: create (validated, priced, seats taken atomically), capture, timeout, reads scoped to the partner. */
export class BookingService {
  /** Spans of captures when telemetry is on (app-support/telemetry); undefined: none. */
  private readonly tracer = appTracer('booking-api');

  constructor(private readonly options: BookingServiceOptions) {}

  private get now(): number {
    return this.options.clock.now();
  }

  /** A booking from a body nobody has checked yet: its shape, then the rules. */
  async create(partner: Partner, body: unknown): Promise<Booking> {
    return this.createChecked(partner, parseCreateBookingRequest(body));
  }

  /** A booking from a request of checked shape (the HTTP layer's DTO): the customer and catalogue rules. */
  async book(partner: Partner, request: CreateBookingRequest): Promise<Booking> {
    checkCustomers(request.customersDetails);
    return this.createChecked(partner, request);
  }

  /** The deprecated POST /booking/create: the same booking, answered as {itineraryId, price}. */
  async createLegacy(partner: Partner, body: unknown): Promise<BookingCreateResponse> {
    return legacyAnswer(await this.create(partner, body));
  }

  /** The deprecated create, from a request of checked shape. */
  async bookLegacy(partner: Partner, request: CreateBookingRequest): Promise<BookingCreateResponse> {
    return legacyAnswer(await this.book(partner, request));
  }

  async get(partner: Partner, bookingId: string): Promise<Booking> {
    let row = await this.findOwned(partner, bookingId);
    const now = this.now;
    if (row.status === BookingStatus.UNCAPTURED && isCaptureOverdue(Number(row.created_at), now)) {
      await this.options.bookings.expireOverdue(now - CAPTURE_WINDOW_MS, now, { bookingId: row.id });
      row = (await this.options.bookings.findById(row.id)) ?? row;
    }
    const tickets = await this.options.bookings.ticketsOf([row.id]);
    return toBookingView(row, tickets.get(row.id) ?? [], now);
  }

  /** The partner's bookings, oldest first (so offsets stay stable while new bookings arrive). */
  async list(
    partner: Partner,
    query: { offset?: string; limit?: string },
    baseUrl: string,
  ): Promise<PaginationWrapper<Booking>> {
    const paging = parsePaging(query.offset, query.limit);
    const now = this.now;
    await this.options.bookings.expireOverdue(now - CAPTURE_WINDOW_MS, now, { partnerId: partner.id });
    const { rows, total } = await this.options.bookings.listForPartner(partner.id, paging.offset, paging.limit);
    const tickets = await this.options.bookings.ticketsOf(rows.map((row) => row.id));
    const items = rows.map((row) => toBookingView(row, tickets.get(row.id) ?? [], now));
    return pageOf(items, paging, total, `${baseUrl}${API_PREFIX}/booking`);
  }

  /**
   * PUT with status PENDING: UNCAPTURED -> PENDING. The same capture again (same partnerReferenceId) answers the booking
   * as it is, so partners may retry; anything else is refused with a conflict that says why.
   */
  async capture(partner: Partner, bookingId: string, body: unknown): Promise<Booking> {
    const row = await this.findOwned(partner, bookingId);
    return this.captureRow(partner, bookingId, row, parseCaptureRequest(body));
  }

  /** The capture of a modify body of checked shape (the HTTP layer's DTO); an unknown booking is named first. */
  async captureWith(partner: Partner, bookingId: string, fields: CaptureFields): Promise<Booking> {
    const row = await this.findOwned(partner, bookingId);
    return this.captureRow(partner, bookingId, row, captureRequestOf(fields));
  }

  /**
   * With telemetry on, a capture is a `booking.capture` span (`booking.id`; `booking.captured`: whether this call
   * captured it), under the request's; the fulfilment round it triggers runs under it.
   */
  private captureRow(partner: Partner, bookingId: string, row: BookingRow, request: CaptureRequest): Promise<Booking> {
    const tracer = this.tracer;
    if (tracer === undefined) return this.captureUntraced(partner, bookingId, row, request, undefined);
    return inSpan(tracer, 'booking.capture', { 'booking.id': bookingId }, (span) =>
      this.captureUntraced(partner, bookingId, row, request, span),
    );
  }

  private async captureUntraced(
    partner: Partner,
    bookingId: string,
    row: BookingRow,
    request: CaptureRequest,
    span: Span | undefined,
  ): Promise<Booking> {
    const now = this.now;
    const captured = await this.options.bookings.capture(
      row.id,
      request.partnerReferenceId,
      now,
      now - CAPTURE_WINDOW_MS,
    );
    span?.setAttribute('booking.captured', captured !== undefined);
    if (captured !== undefined) {
      // The booking as the capture left it: the PENDING the spec shows (no tickets before fulfilment), whatever
      // fulfilment does once the capture committed.
      this.options.onCaptured?.();
      return toBookingView(captured, [], now);
    }
    // Not captured by this call: read the state it is in now and explain.
    const current = await this.get(partner, bookingId);
    switch (current.status) {
      case BookingStatus.PENDING:
      case BookingStatus.COMPLETED:
        if (current.partnerReferenceId === request.partnerReferenceId) return current;
        throw BookingError.conflict(
          ErrorCode.INVALID_STATE_TRANSITION,
          `Booking ${bookingId} is already captured (status ${current.status}) with partnerReferenceId "${current.partnerReferenceId}"; it cannot be captured again with "${request.partnerReferenceId}"`,
        );
      case BookingStatus.CAPTURE_TIMEOUT:
        throw BookingError.conflict(
          ErrorCode.CAPTURE_TIMEOUT,
          `Booking ${bookingId} was not captured within one hour of creation and is CAPTURE_TIMEOUT; it can no longer be captured`,
        );
      default:
        throw BookingError.conflict(
          ErrorCode.INVALID_STATE_TRANSITION,
          `Booking ${bookingId} is ${current.status} and cannot be captured`,
        );
    }
  }

  /**
   * The booking behind a voucher link, for the customer holding it (no API key: the link's random token is the secret).
   * Only fulfilled bookings have a voucher; anything else is "not found".
   */
  async getByVoucherToken(token: string): Promise<Booking> {
    const row = /^[0-9a-f-]{36}$/.test(token) ? await this.options.bookings.findByVoucherToken(token) : undefined;
    if (!row || row.status !== BookingStatus.COMPLETED) throw BookingError.notFound('Voucher', token);
    const tickets = await this.options.bookings.ticketsOf([row.id]);
    return toBookingView(row, tickets.get(row.id) ?? [], this.now);
  }

  /** The booking a ticket link belongs to, with that ticket. */
  async getByTicket(publicId: string): Promise<{ ticket: { publicId: string; url: string }; booking: Booking }> {
    const bookingId = /^[0-9a-f-]{36}$/.test(publicId)
      ? await this.options.bookings.findBookingIdByTicket(publicId)
      : undefined;
    const row = bookingId === undefined ? undefined : await this.options.bookings.findById(bookingId);
    if (!row) throw BookingError.notFound('Ticket', publicId);
    const tickets = (await this.options.bookings.ticketsOf([row.id])).get(row.id) ?? [];
    const booking = toBookingView(row, tickets, this.now);
    return { ticket: booking.tickets.find((ticket) => ticket.publicId === publicId)!, booking };
  }

  private async findOwned(partner: Partner, bookingId: string): Promise<BookingRow> {
    // Ids are decimal strings; anything else cannot name a booking. Another partner's booking is "not found" too.
    const row = /^\d{1,15}$/.test(bookingId) ? await this.options.bookings.findById(Number(bookingId)) : undefined;
    if (!row || row.partner_id !== partner.id) throw BookingError.notFound('Booking', bookingId);
    return row;
  }

  private async createChecked(partner: Partner, request: CreateBookingRequest): Promise<Booking> {
    return toBookingView(await this.createFromRequest(partner, request), [], this.now);
  }

  private async createFromRequest(partner: Partner, request: CreateBookingRequest): Promise<BookingRow> {
    const found = await this.options.catalogue.getVariant(request.variantId);
    if (!found) throw BookingError.invalid('variantId', `variant "${request.variantId}" does not exist`);
    const { product, variant } = found;
    const slot = await this.options.catalogueRepository.findSlot(request.inventoryId);
    if (!slot || slot.variantId !== variant.id) {
      throw BookingError.invalid(
        'inventoryId',
        `inventory slot "${request.inventoryId}" does not exist for variant ${variant.id}`,
      );
    }
    const localNow = localDateTimeAt(this.now, product.timezone);
    if (slot.startDateTime <= localNow) {
      throw BookingError.invalid(
        'inventoryId',
        `inventory slot ${slot.id} started at ${slot.startDateTime} (${product.timezone}) and can no longer be booked`,
      );
    }
    const details = request.customersDetails;
    if (details.priceType !== undefined && details.priceType !== 'PER_PERSON') {
      throw BookingError.invalid(
        'customersDetails.priceType',
        `"${details.priceType}" is not offered by variant ${variant.id} (only PER_PERSON)`,
      );
    }

    const customers: Customer[] = details.customers.map((customer, index) => {
      const path = `customersDetails.customers[${index}]`;
      if (!slot.prices.some((price) => price.person_type === customer.personType)) {
        const types = slot.prices.map((price) => price.person_type).join(', ');
        throw BookingError.invalid(
          `${path}.personType`,
          `"${customer.personType}" is not sold for inventory ${slot.id} (available: ${types})`,
        );
      }
      const definitions = customerFieldDefinitions(variant.inputFields, customer.isPrimary);
      return {
        personType: customer.personType,
        isPrimary: customer.isPrimary,
        inputFields: answerFields(definitions, customer.inputFields, `${path}.inputFields`),
      };
    });
    const variantFields = answerFields(
      variant.inputFields.filter((field) => field.appliesTo === 'VARIANT'),
      request.variantInputFields,
      'variantInputFields',
    );

    const amountMinor = this.checkPrice(request, slot);
    const now = this.now;
    // Seats held by bookings that have just timed out go back before we count what is left.
    await this.options.bookings.expireOverdue(now - CAPTURE_WINDOW_MS, now, { inventoryId: slot.id });
    const result = await this.options.bookings.insertTakingSeats({
      partner_id: partner.id,
      partner_reference_id: null,
      variant_id: variant.id,
      inventory_id: slot.id,
      product_id: product.id,
      product_name: product.name,
      variant_name: variant.name,
      start_date_time: slot.startDateTime,
      customers_json: JSON.stringify({ count: customers.length, customers }),
      variant_input_fields_json: JSON.stringify(variantFields),
      seats: customers.length,
      price_amount_minor: amountMinor,
      currency_code: slot.currencyCode,
      status: BookingStatus.UNCAPTURED,
      voucher_token: crypto.randomUUID(),
      voucher_url: null,
      created_at: now,
      captured_at: null,
      completed_at: null,
      timed_out_at: null,
    });
    if (result.kind === 'sold-out') {
      throw BookingError.conflict(
        ErrorCode.SOLD_OUT,
        `Inventory slot ${slot.id} has ${result.remaining} seat(s) left; ${customers.length} requested`,
      );
    }
    return result.row;
  }

  /** The submitted price must be what the slot charges for these customers, in the slot's currency. */
  private checkPrice(request: CreateBookingRequest, slot: StoredSlot): number {
    const { amount, currencyCode } = request.price;
    if (!isCurrencyCode(currencyCode)) {
      throw BookingError.invalid(
        'price.currencyCode',
        `Invalid currency code: ${currencyCode}. Currency doesn't exist`,
      );
    }
    if (currencyCode !== slot.currencyCode) {
      throw BookingError.invalid(
        'price.currencyCode',
        `${currencyCode} is not the currency of inventory ${slot.id} (${slot.currencyCode})`,
      );
    }
    if (amount < 0) throw BookingError.invalid('price.amount', `must not be negative, got ${amount}`);
    const expected = request.customersDetails.customers.reduce((sum, customer) => {
      const price = slot.prices.find((candidate) => candidate.person_type === customer.personType)!;
      return sum + Number(price.amount_minor);
    }, 0);
    const submitted = toMinorUnits(amount, currencyCode);
    if (submitted !== expected) {
      const counts = new Map<string, number>();
      for (const customer of request.customersDetails.customers)
        counts.set(customer.personType, (counts.get(customer.personType) ?? 0) + 1);
      const breakdown = [...counts].map(([type, n]) => `${n} ${type}`).join(' + ');
      throw new BookingError(
        'invalid',
        ErrorCode.PRICE_MISMATCH,
        `Invalid price.amount: ${amount} ${currencyCode} does not match the price of inventory ${slot.id} for ${breakdown}, which is ${formatMoney(expected, currencyCode)}`,
      );
    }
    return expected;
  }
}

function legacyAnswer(booking: Booking): BookingCreateResponse {
  return { itineraryId: booking.bookingId, price: booking.price };
}
