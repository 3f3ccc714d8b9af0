import crypto from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Clock } from 'app-support';
import { appTracer, inSpan } from 'app-support/telemetry';
import type { BookingRepository, BookingRow, IssuedFulfilment } from '../storage/booking-repository';

/** Where customers open their voucher and tickets (served by the app under this base URL). */
export interface FulfilmentLinks {
  voucherUrl(voucherToken: string): string;
  ticketUrl(publicId: string): string;
}

/** Links under a base URL; a function is read at each fulfilment (a server on port 0 knows its URL only once listening). */
export function linksUnder(publicBaseUrl: string | (() => string)): FulfilmentLinks {
  const base = () => (typeof publicBaseUrl === 'function' ? publicBaseUrl() : publicBaseUrl).replace(/\/+$/, '');
  return {
    voucherUrl: (token) => `${base()}/voucher/${token}`,
    ticketUrl: (publicId) => `${base()}/ticket/${publicId}`,
  };
}

/**
 * Fulfils captured bookings: one ticket per customer (UUID publicId and a url), a voucher url, then COMPLETED.
 * Everything PENDING in the database is work, so a restart (or another instance) picks up what was left.
 */
export class Fulfilment {
  static readonly BATCH = 20;
  /** With telemetry on: the rounds a capture triggers get a span under the capture's (telemetry.ts). */
  private readonly tracer = appTracer('booking-api');

  constructor(
    private readonly bookings: BookingRepository,
    private readonly links: FulfilmentLinks,
    private readonly clock: Clock,
  ) {}

  private issue(row: BookingRow): IssuedFulfilment {
    const tickets = Array.from({ length: Number(row.seats) }, () => {
      const publicId = crypto.randomUUID();
      return { publicId, url: this.links.ticketUrl(publicId) };
    });
    return { tickets, voucherUrl: this.links.voucherUrl(row.voucher_token) };
  }

  /**
   * Fulfils everything pending now; returns the booking ids completed. With telemetry on, a round run inside a span
   * (the one a capture triggers) is a `booking.fulfilment` span under it (`booking.fulfilment.completed`: how many);
   * the periodic rounds, which find nothing most of the time, make none.
   */
  runOnce(): Promise<number[]> {
    const tracer = this.tracer;
    if (tracer === undefined || trace.getActiveSpan() === undefined) return this.fulfil();
    return inSpan(tracer, 'booking.fulfilment', {}, async (span) => {
      const completed = await this.fulfil();
      span.setAttribute('booking.fulfilment.completed', completed.length);
      return completed;
    });
  }

  private async fulfil(): Promise<number[]> {
    const completed: number[] = [];
    for (;;) {
      const batch = await this.bookings.fulfilPending((row) => this.issue(row), this.clock.now(), Fulfilment.BATCH);
      completed.push(...batch);
      if (batch.length < Fulfilment.BATCH) return completed;
    }
  }
}
