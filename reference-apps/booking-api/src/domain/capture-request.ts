import { RequestReader } from './request-reader';
import { BookingError, ErrorCode } from './booking-error';
import { BookingStatus, parseStatus } from './booking-status';

export interface CaptureRequest {
  status: typeof BookingStatus.PENDING;
  partnerReferenceId: string;
}

/** Modify body: capturing (status PENDING with partnerReferenceId) is the only documented use, so it is the only one accepted. */
export function parseCaptureRequest(body: unknown): CaptureRequest {
  const root = RequestReader.root(body);
  const statusText = root.field('status').string({ maxLength: 40 });
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
  const partnerReferenceId = root.field('partnerReferenceId').string({ allowNumber: true, maxLength: 200 });
  return { status, partnerReferenceId };
}
