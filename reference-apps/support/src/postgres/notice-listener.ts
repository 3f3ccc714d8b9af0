import pg from 'pg';

export interface NoticeHandlers<T> {
  /** A notice on the channel, from any process (this one included), once `parse` accepted its payload. */
  onNotice(notice: T): void;
  /** The connection was lost and is back: notices sent meanwhile are lost, so the listener's caller must catch up. */
  onResumed(): void;
}

export interface NoticeListenerOptions<T> {
  /** The channel to LISTEN on: a plain lower-case identifier (it is written into the statement). */
  channel: string;
  /** The payload as the caller's notice, or undefined to ignore it (another program on the channel, a bad payload). */
  parse(payload: string | undefined): T | undefined;
  handlers: NoticeHandlers<T>;
}

const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Holds one PostgreSQL connection in `LISTEN <channel>` (a pooled connection cannot: LISTEN belongs to a
 * session). When the connection drops (server restart, network, `pg_terminate_backend`), it reconnects with a
 * delay growing from 100 ms to 5 s and then reports `onResumed`. PostgreSQL delivers a notice to every listening
 * session of the database when the sending transaction commits, in commit order.
 */
export class PostgresNoticeListener<T> {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private connectedOnce = false;

  constructor(
    private readonly connectionString: string,
    private readonly options: NoticeListenerOptions<T>,
  ) {
    if (!CHANNEL_NAME.test(options.channel))
      throw new Error(`The channel name "${options.channel}" must be a lower-case identifier`);
  }

  /** Connects and listens; rejects when the first connection fails (a server should not start deaf). */
  start(): Promise<void> {
    return this.connect();
  }

  /** Whether the listening connection is up now. */
  get listening(): boolean {
    return this.client !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { channel, parse, handlers } = this.options;
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    // Without an 'error' listener a dropped connection would crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== channel) return;
      const notice = parse(message.payload);
      if (notice !== undefined) handlers.onNotice(notice);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
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
    if (this.connectedOnce) handlers.onResumed();
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
