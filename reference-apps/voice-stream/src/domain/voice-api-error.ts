/** A refused REST request: HTTP status and the API's `{message, code}` body. */
export class VoiceApiError extends Error {
  override readonly name = 'VoiceApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Sent as `Retry-After` (seconds) when the refusal is temporary. */
    readonly retryAfterSeconds?: number,
    /** The specific problem, sent as `detail` beside the general `message` (DeepL's glossary errors). */
    readonly detail?: string,
  ) {
    super(message);
  }
}
