import type { ErrorPayload } from './messages';
import type { ReasonCode } from './reason-codes';

/** A client or server failure that ends the session with an `error` message. */
export class SessionError extends Error {
  override readonly name = 'SessionError';

  constructor(
    readonly reason: ReasonCode,
    readonly requestType: string,
    message: string,
  ) {
    super(message);
  }

  toPayload(): ErrorPayload {
    return {
      request_type: this.requestType,
      error_code: this.reason.errorCode,
      reason_code: this.reason.reasonCode,
      error_message: this.message,
    };
  }
}
