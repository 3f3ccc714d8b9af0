import { openDatabase } from 'app-support';
import type { RawBuilder } from 'kysely';

/** A lock taken by another database session (a stuck process, say), held until `release()`. */
export interface HeldLock {
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
  const holder = other.db.transaction().execute(async (trx) => {
    await lockStatement.execute(trx);
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  let ended: Promise<void> | undefined;
  return {
    release() {
      release();
      ended ??= holder.finally(() => other.destroy());
      return ended;
    },
  };
}
