import { openDatabase } from 'app-support';
import { sql, type RawBuilder } from 'kysely';

/** A lock taken by another database session (a stuck process, say), held until `release()`. */
export interface HeldLock {
  /**
   * Resolves once another session waits on the lock: the request under test is in flight, blocked inside the server.
   * (PostgreSQL's own record, polled: no guess of how long the request takes to get there.)
   */
  someoneWaits(): Promise<void>;
  /** Ends the holding transaction; resolves once it committed and its session closed (again: the same promise). */
  release(): Promise<void>;
}

/** Opens a session on `url`, runs `lockStatement` in a transaction and resolves once the lock is held. */
export async function holdLock(url: string, lockStatement: RawBuilder<unknown>): Promise<HeldLock> {
  const other = await openDatabase(url);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  let holderPid = 0;
  const holder = other.db.transaction().execute(async (trx) => {
    await lockStatement.execute(trx);
    holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  let ended: Promise<void> | undefined;
  return {
    async someoneWaits() {
      // Bounded only so that a broken test ends; on a loaded machine the request may take seconds to get there.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`.execute(
          other.db,
        );
        if (rows[0]!.n > 0) return;
        if (Date.now() > deadline) throw new Error('no session came to wait on the held lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    release() {
      release();
      ended ??= holder.finally(() => other.destroy());
      return ended;
    },
  };
}
