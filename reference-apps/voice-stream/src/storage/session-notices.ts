/** The channel on which instances tell each other to drop a stream. */
export const SESSION_NOTICE_CHANNEL = 'voice_session_notices';

/**
 * "Drop the stream of this session": the one opened with `token` (a token hash) when given, else any
 * (the session ended). Sent with pg_notify inside the transaction that changed the session, so it reaches
 * every instance when, and only if, the change commits.
 */
export interface SessionNotice {
  readonly session: string;
  readonly token?: string;
  readonly reason: string;
}

export function encodeSessionNotice(notice: SessionNotice): string {
  return JSON.stringify(notice);
}

/** A notice's payload, or undefined for one that is not ours (another program on the channel, bad JSON). */
export function parseSessionNotice(payload: string | undefined): SessionNotice | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Partial<SessionNotice>;
    if (typeof value.session !== 'string' || typeof value.reason !== 'string') return undefined;
    if (value.token !== undefined && typeof value.token !== 'string') return undefined;
    return { session: value.session, token: value.token, reason: value.reason };
  } catch {
    return undefined;
  }
}
