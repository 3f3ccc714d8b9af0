import { RequestReader } from './request-reader';
import { BookingError, ErrorCode } from './booking-error';
import { BookingStatus, parseStatus } from './booking-status';

export interface CaptureRequest {
  status: typeof BookingStatus.PENDING;
  partnerReferenceId: string;
}

/** A modify body whose shape is checked (the HTTP layer's DTO): the status as the partner wrote it. */
export interface CaptureFields {
  status: string;
  partnerReferenceId: string;
}

/**
 * Modify body from a caller that has not checked it: capturing (status PENDING with partnerReferenceId) is the only
 * documented use, so it is the only one accepted.
 */
export function parseCaptureRequest(body: unknown): CaptureRequest {
  const root = RequestReader.root(body);
  const status = captureStatus(root.field('status').string({ maxLength: 40 }));
  const partnerReferenceId = root.field('partnerReferenceId').string({ allowNumber: true, maxLength: 200 });
  return { status, partnerReferenceId };
}

/** The capture a shape-checked modify body asks for. */
export function captureRequestOf(fields: CaptureFields): CaptureRequest {
  return { status: captureStatus(fields.status), partnerReferenceId: fields.partnerReferenceId };
}

/** PENDING, or why the status cannot be asked for: unknown (400), or a state only the service moves a booking to (409). */
function captureStatus(statusText: string): typeof BookingStatus.PENDING {
  const status = parseStatus(statusText);
  if (!status) {
    throw BookingError.invalid('status', `Invalid status code: ${statusText}. Status doesn't exist (expected PENDING)`);
  }
  if (status !== BookingStatus.PENDING) {
    throw BookingError.conflict(
      ErrorCode.INVALID_STATE_TRANSITION,
      `A booking cannot be moved to ${status} by a partner; only status PENDING (capture) may be requested`,
    );
  }
  return status;
}
