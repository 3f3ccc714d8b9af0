import test from 'ava';
import { MemorySessionRegistry } from '../src/storage/memory-session-registry';
import { MAX_TOKEN_HASHES_KEPT } from '../src/domain/registry/session-tokens';

test('rotating a session without end keeps a bounded number of token hashes (soak finding)', async (t) => {
  const registry = new MemorySessionRegistry();
  const request = { config: {} } as any;
  let { token } = await registry.create('owner', request);
  const first = token;
  for (let i = 0; i < 500; i++) token = (await registry.rotate('owner', token)).token;
  const internals = registry as unknown as {
    byTokenHash: Map<string, unknown>;
    sessions: Map<string, { tokenHashes: Set<string> }>;
  };
  t.is(internals.byTokenHash.size, MAX_TOKEN_HASHES_KEPT);
  t.is([...internals.sessions.values()][0]!.tokenHashes.size, MAX_TOKEN_HASHES_KEPT);
  // A token forgotten long ago is now unknown (refused without ending the session); the current one still works.
  await t.throwsAsync(registry.rotate('owner', first));
  t.truthy((await registry.rotate('owner', token)).token);
});
