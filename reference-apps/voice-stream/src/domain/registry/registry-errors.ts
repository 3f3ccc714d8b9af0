import { VoiceApiError } from '../voice-api-error';

/** The refusals of the session registry, worded once for both implementations. */
export const RegistryErrors = {
  tooManySessions: (open: number, max: number) =>
    new VoiceApiError(
      429,
      'too_many_sessions',
      `This API key already has ${open} open sessions (at most ${max}); finish one first`,
    ),
  missingToken: () =>
    new VoiceApiError(
      401,
      'missing_token',
      'The token query parameter is required: /v3/voice/realtime/connect?token=<token>',
    ),
  unknownTokenOnConnect: () =>
    new VoiceApiError(403, 'invalid_token', 'Unknown or expired session token; request a new session'),
  unknownTokenOnReconnect: () => new VoiceApiError(403, 'invalid_token', 'Unknown or expired session token'),
  outdatedTokenOnConnect: () =>
    new VoiceApiError(403, 'outdated_token', 'This token was replaced by a newer one; using it ended the session'),
  outdatedTokenOnReconnect: () =>
    new VoiceApiError(
      403,
      'outdated_token',
      'This token was replaced by a newer one; using it ended the session. Request a new session',
    ),
  tokenAlreadyUsed: () =>
    new VoiceApiError(403, 'token_already_used', 'Each token opens one connection; using it again ended the session'),
  storeUnavailable: () =>
    new VoiceApiError(503, 'service_unavailable', 'The session store (PostgreSQL) is unavailable; retry shortly'),
} as const;

/** Why a session ended, as the dropped connection's close reason. */
export const EndReasons = {
  outdatedToken: 'an outdated token was used',
  tokenUsedTwice: 'a token was used twice',
  reconnection: 'reconnection requested',
  serverStopping: 'server stopping',
  ended: 'session ended',
} as const;
