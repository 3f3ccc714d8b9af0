import pg from 'pg';
import { CHANGE_CHANNEL, parseChangeNotice, type ChangeNotice } from './change-notice';

export interface ChangeListenerHandlers {
  /** A notice from any process, this one included. */
  onNotice(notice: ChangeNotice): void;
  /** The connection was lost and is back: notices may have been missed meanwhile. */
  onResumed(): void;
}

const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * Holds one PostgreSQL connection in `LISTEN content_graphql_changes` (a pooled connection cannot: LISTEN belongs
 * to a session). When the connection drops (server restart, network), it reconnects with a growing delay and
 * then reports `onResumed`, because notices sent meanwhile are lost. PostgreSQL delivers a notice to every
 * listening session of the database when the sending transaction commits, in commit order.
 */
export class PostgresChangeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private connectedOnce = false;

  constructor(private readonly connectionString: string, private readonly handlers: ChangeListenerHandlers) {}

  /** Connects and listens; rejects when the first connection fails (the server should not start blind). */
  async start(): Promise<void> {
    await this.connect();
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
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    // Without an 'error' listener a dropped connection would crash the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      const notice = parseChangeNotice(message.payload);
      if (notice) this.handlers.onNotice(notice);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
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
