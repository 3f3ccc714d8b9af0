import test from 'ava';
import pg from 'pg';
import { PostgresNoticeListener, findFreePort, postgresForTests } from '../src/index';

interface Notice {
  id: number;
}

const parse = (payload: string | undefined): Notice | undefined => {
  try {
    const value = JSON.parse(payload ?? '') as Partial<Notice>;
    return typeof value.id === 'number' ? { id: value.id } : undefined;
  } catch {
    return undefined;
  }
};

/** A listener whose notices and resumptions can be awaited one by one. */
function recordingListener(url: string, channel = 'test_notices') {
  const notices: Notice[] = [];
  let resumed = 0;
  let wake: (() => void) | null = null;
  const changed = () => {
    wake?.();
    wake = null;
  };
  const listener = new PostgresNoticeListener<Notice>(url, {
    channel,
    parse,
    handlers: {
      onNotice: (notice) => {
        notices.push(notice);
        changed();
      },
      onResumed: () => {
        resumed++;
        changed();
      },
    },
  });
  const until = async (done: () => boolean) => {
    while (!done())
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
  };
  return { listener, notices, resumed: () => resumed, until };
}

test('notices reach the listener; other channels and payloads its parser refuses do not; a dropped connection comes back and says so', async (t) => {
  const database = await postgresForTests('notice_listener');
  t.teardown(() => database.close());
  const sender = new pg.Client({ connectionString: database.url });
  await sender.connect();
  t.teardown(() => sender.end());
  const { listener, notices, resumed, until } = recordingListener(database.url);
  await listener.start();
  t.teardown(() => listener.close());
  t.true(listener.listening);

  await sender.query("select pg_notify('other_channel', '{\"id\":0}')");
  await sender.query("select pg_notify('test_notices', 'not json'), pg_notify('test_notices', '{\"id\":\"1\"}')");
  await sender.query("select pg_notify('test_notices', '{\"id\":1}')");
  await until(() => notices.length >= 1);
  t.deepEqual(notices, [{ id: 1 }], 'only the valid notice on the channel, in order');

  // The server ends the listening session: the listener reconnects, reports the gap, and hears notices again.
  await sender.query("select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN test_notices'");
  await until(() => resumed() === 1);
  t.true(listener.listening);
  await sender.query("select pg_notify('test_notices', '{\"id\":2}')");
  await until(() => notices.length >= 2);
  t.deepEqual(notices, [{ id: 1 }, { id: 2 }]);

  await listener.close();
  t.false(listener.listening);
  const { rows } = await sender.query(
    "select count(*)::int as n from pg_stat_activity where query = 'LISTEN test_notices'",
  );
  t.is(rows[0].n, 0, 'closing ends the listening session');
});

test('the first connection failing rejects start, and a channel name that is not an identifier is refused', async (t) => {
  const port = await findFreePort();
  const { listener } = recordingListener(`postgres://nobody@127.0.0.1:${port}/none`);
  await t.throwsAsync(listener.start(), { message: /ECONNREFUSED|connect/ });
  t.false(listener.listening);
  t.throws(() => recordingListener('postgres://x@127.0.0.1/x', 'changes; drop table x'), {
    message: 'The channel name "changes; drop table x" must be a lower-case identifier',
  });
});
