/** Booking states of the spec. COMPLETED is reached when fulfilment has issued the tickets. */
export const BookingStatus = {
  UNCAPTURED: 'UNCAPTURED',
  PENDING: 'PENDING',
  COMPLETED: 'COMPLETED',
  CAPTURE_TIMEOUT: 'CAPTURE_TIMEOUT',
} as const;
export type BookingStatus = (typeof BookingStatus)[keyof typeof BookingStatus];

export const ALL_STATUSES: readonly BookingStatus[] = Object.values(BookingStatus);

/** Partner docs also spell the timeout CAPTURE_TIMEDOUT; accepted on input, never written. */
export function parseStatus(value: string): BookingStatus | undefined {
  if (value === 'CAPTURE_TIMEDOUT') return BookingStatus.CAPTURE_TIMEOUT;
  return (ALL_STATUSES as readonly string[]).includes(value) ? (value as BookingStatus) : undefined;
}

/** A booking not captured within this time after creation times out. */
export const CAPTURE_WINDOW_MS = 60 * 60 * 1000;

export function isCaptureOverdue(createdAt: number, now: number): boolean {
  return now - createdAt >= CAPTURE_WINDOW_MS;
}
