import pg from 'pg';

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

function parseSessionNotice(payload: string | undefined): SessionNotice | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Partial<SessionNotice>;
    if (typeof value.session !== 'string' || typeof value.reason !== 'string') return undefined;
    if (value.token !== undefined && typeof value.token !== 'string') return undefined;
    return { session: value.session, token: value.token, reason: value.reason };
  } catch {
    return undefined;
  }
}

export interface SessionNoticeHandlers {
  onNotice(notice: SessionNotice): void;
  /** The connection was lost and is back: notices may have been missed meanwhile. */
  onResumed(): void;
}

const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * One dedicated PostgreSQL connection in `LISTEN voice_session_notices` (a pooled connection cannot hold a
 * LISTEN). Reconnects with a growing delay when the connection drops, then reports `onResumed`.
 */
export class SessionNoticeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private connectedOnce = false;

  constructor(
    private readonly connectionString: string,
    private readonly handlers: SessionNoticeHandlers,
  ) {}

  /** Connects and listens; rejects when the first connection fails (an instance must not start deaf). */
  start(): Promise<void> {
    return this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    // Without an 'error' listener a dropped connection would crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== SESSION_NOTICE_CHANNEL) return;
      const notice = parseSessionNotice(message.payload);
      if (notice) this.handlers.onNotice(notice);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_NOTICE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RETRY_FIRST_MS;
    if (this.connectedOnce) this.handlers.onResumed();
    this.connectedOnce = true;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }
}
