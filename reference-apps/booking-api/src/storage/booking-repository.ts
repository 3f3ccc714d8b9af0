import type { Kysely, Transaction } from 'kysely';
import type { DatabaseDialect } from 'app-support';
import type { BookingSchema, BookingTable } from './schema';

export type BookingRow = Omit<BookingTable, 'id'> & { id: number };

export interface StoredTicket {
  publicId: string;
  url: string;
}

export type NewBooking = Omit<BookingRow, 'id'>;

/** Outcome of taking seats for a new booking. */
export type InsertBookingResult = { kind: 'created'; row: BookingRow } | { kind: 'sold-out'; remaining: number };

export interface IssuedFulfilment {
  tickets: StoredTicket[];
  voucherUrl: string;
}

export interface BookingFilter {
  bookingId?: number;
  partnerId?: string;
  inventoryId?: string;
  variantId?: string;
}

/** A booking row with its id as a number (PostgreSQL's bigserial arrives as a string). */
function withNumberId<T extends { id: unknown }>(row: T): Omit<T, 'id'> & { id: number } {
  return { ...row, id: Number(row.id) };
}

export class BookingRepository {
  constructor(
    private readonly db: Kysely<BookingSchema>,
    private readonly dialect: DatabaseDialect,
  ) {}

  /**
   * Takes the seats and records the booking in one transaction. The seat decrement is a single conditional
   * UPDATE (remaining >= seats), so concurrent requests on SQLite or several PostgreSQL instances can never oversell.
   */
  async insertTakingSeats(booking: NewBooking): Promise<InsertBookingResult> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('inventory_slot')
        .set((eb) => ({ remaining: eb('remaining', '-', booking.seats) }))
        .where('id', '=', booking.inventory_id)
        .where((eb) => eb.or([eb('remaining', 'is', null), eb('remaining', '>=', booking.seats)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) {
        const slot = await trx
          .selectFrom('inventory_slot')
          .select('remaining')
          .where('id', '=', booking.inventory_id)
          .executeTakeFirst();
        return { kind: 'sold-out', remaining: slot?.remaining ?? 0 };
      }
      const row = await trx.insertInto('booking').values(booking).returningAll().executeTakeFirstOrThrow();
      return { kind: 'created', row: withNumberId(row) };
    });
  }

  async findById(id: number): Promise<BookingRow | undefined> {
    const row = await this.db.selectFrom('booking').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? withNumberId(row) : undefined;
  }

  async listForPartner(
    partnerId: string,
    offset: number,
    limit: number,
  ): Promise<{ rows: BookingRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('booking')
        .selectAll()
        .where('partner_id', '=', partnerId)
        .orderBy('id')
        .offset(offset)
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('booking')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('partner_id', '=', partnerId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(withNumberId), total: Number(count.n) };
  }

  async ticketsOf(bookingIds: number[]): Promise<Map<number, StoredTicket[]>> {
    const byBooking = new Map<number, StoredTicket[]>();
    if (bookingIds.length === 0) return byBooking;
    const rows = await this.db
      .selectFrom('ticket')
      .select(['booking_id', 'public_id', 'url'])
      .where('booking_id', 'in', bookingIds)
      .orderBy('booking_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const id = Number(row.booking_id);
      byBooking.set(id, [...(byBooking.get(id) ?? []), { publicId: row.public_id, url: row.url }]);
    }
    return byBooking;
  }

  /**
   * UNCAPTURED -> PENDING, only while still UNCAPTURED and created after `createdAfter`: the booking as this statement
   * left it when this call captured it, undefined otherwise. Taken from the statement itself (RETURNING), not read
   * afterwards: another instance's fulfilment may complete the booking as soon as the capture commits.
   */
  async capture(
    id: number,
    partnerReferenceId: string,
    now: number,
    createdAfter: number,
  ): Promise<BookingRow | undefined> {
    const row = await this.db
      .updateTable('booking')
      .set({ status: 'PENDING', partner_reference_id: partnerReferenceId, captured_at: now })
      .where('id', '=', id)
      .where('status', '=', 'UNCAPTURED')
      .where('created_at', '>', createdAfter)
      .returningAll()
      .executeTakeFirst();
    return row ? withNumberId(row) : undefined;
  }

  /**
   * Moves UNCAPTURED bookings created at or before `createdAtOrBefore` to CAPTURE_TIMEOUT and gives their seats back,
   * in one transaction per batch. On PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED, so several instances
   * sweeping at once split the work instead of waiting on or double-counting each other. Returns the ids timed out.
   */
  async expireOverdue(
    createdAtOrBefore: number,
    now: number,
    filter: BookingFilter = {},
    batchSize = 200,
  ): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('booking')
        .select(['id', 'inventory_id', 'seats'])
        .where('status', '=', 'UNCAPTURED')
        .where('created_at', '<=', createdAtOrBefore);
      if (filter.bookingId !== undefined) query = query.where('id', '=', filter.bookingId);
      if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
      if (filter.inventoryId !== undefined) query = query.where('inventory_id', '=', filter.inventoryId);
      if (filter.variantId !== undefined) query = query.where('variant_id', '=', filter.variantId);
      query = query.orderBy('created_at').limit(batchSize);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const overdue = await query.execute();
      if (overdue.length === 0) return [];

      const ids = overdue.map((row) => Number(row.id));
      // Conditional again: on SQLite (no row locks) a capture may have won since the select.
      const expired = await trx
        .updateTable('booking')
        .set({ status: 'CAPTURE_TIMEOUT', timed_out_at: now })
        .where('id', 'in', ids)
        .where('status', '=', 'UNCAPTURED')
        .returning(['id', 'inventory_id', 'seats'])
        .execute();
      await this.returnSeats(trx, expired);
      return expired.map((row) => Number(row.id));
    });
  }

  /** Seats back to their slots, slots updated in id order so concurrent sweeps cannot deadlock. */
  private async returnSeats(
    trx: Transaction<BookingSchema>,
    released: { inventory_id: string; seats: number }[],
  ): Promise<void> {
    const seatsBySlot = new Map<string, number>();
    for (const row of released)
      seatsBySlot.set(row.inventory_id, (seatsBySlot.get(row.inventory_id) ?? 0) + Number(row.seats));
    for (const slotId of [...seatsBySlot.keys()].sort()) {
      await trx
        .updateTable('inventory_slot')
        .set((eb) => ({ remaining: eb('remaining', '+', seatsBySlot.get(slotId)!) }))
        .where('id', '=', slotId)
        .where('remaining', 'is not', null)
        .execute();
    }
  }

  /**
   * Fulfils up to `batchSize` PENDING bookings: tickets and voucher from `issue`, then COMPLETED, each in the same
   * transaction as its lock, so a crash leaves the booking PENDING and the next run (on any instance) retries it.
   */
  async fulfilPending(issue: (row: BookingRow) => IssuedFulfilment, now: number, batchSize = 20): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('booking')
        .selectAll()
        .where('status', '=', 'PENDING')
        .orderBy('captured_at')
        .orderBy('id')
        .limit(batchSize);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const pending = await query.execute();
      const done: number[] = [];
      for (const raw of pending) {
        const row = withNumberId(raw);
        const issued = issue(row);
        const completed = await trx
          .updateTable('booking')
          .set({ status: 'COMPLETED', completed_at: now, voucher_url: issued.voucherUrl })
          .where('id', '=', row.id)
          .where('status', '=', 'PENDING')
          .executeTakeFirst();
        if (Number(completed.numUpdatedRows) === 0) continue;
        if (issued.tickets.length > 0) {
          await trx
            .insertInto('ticket')
            .values(
              issued.tickets.map((ticket, position) => ({
                public_id: ticket.publicId,
                booking_id: row.id,
                url: ticket.url,
                position,
              })),
            )
            .execute();
        }
        done.push(row.id);
      }
      return done;
    });
  }

  async countByStatus(status: string): Promise<number> {
    const row = await this.db
      .selectFrom('booking')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The booking a ticket belongs to (for the ticket page a customer opens). */
  async findBookingIdByTicket(publicId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('ticket')
      .select('booking_id')
      .where('public_id', '=', publicId)
      .executeTakeFirst();
    return row ? Number(row.booking_id) : undefined;
  }

  /** Bookings by voucher token (for the voucher page a customer opens). */
  async findByVoucherToken(token: string): Promise<BookingRow | undefined> {
    const row = await this.db.selectFrom('booking').selectAll().where('voucher_token', '=', token).executeTakeFirst();
    return row ? withNumberId(row) : undefined;
  }
}
