import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { ADAPTED_FILES, acousticModelUse } from '../src/engines/pocketsphinx/acoustic-adaptation';
import { waitFor } from './support/child-processes';
import { startInstanceProcess } from './support/instance-process';
import { requireEnginePackages } from './support/system-packages';

// A server started without `npm run adapt` (a container's command, a process manager) recognised worse with
// nothing logged. It now says at start which acoustic model each profile uses, and warns when one is missing.

const folders: string[] = [];
test.after.always(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'voice-adaptation-'));
  folders.push(made);
  return made;
}

test('a profile whose adapted model is complete is reported as adapted; one with a file missing is a warning', (t) => {
  const directory = folder();
  mkdirSync(path.join(directory, 'wideband'));
  for (const file of ADAPTED_FILES) writeFileSync(path.join(directory, 'wideband', file), '');
  mkdirSync(path.join(directory, 'narrowband'));
  for (const file of ADAPTED_FILES.slice(1)) writeFileSync(path.join(directory, 'narrowband', file), '');
  const [wideband, narrowband] = acousticModelUse(directory);
  t.is(wideband.adapted, path.join(directory, 'wideband'));
  t.notRegex(wideband.line, /WARNING/);
  t.is(narrowband.adapted, undefined);
  t.regex(narrowband.line, /WARNING: no adapted acoustic model for narrowband audio/);
  t.regex(narrowband.line, /npm run adapt -w voice-stream/);
});

test('the server started without an adapted model warns on its output, for both profiles, with the command that makes it', async (t) => {
  requireEnginePackages();
  const empty = folder();
  const database = path.join(folder(), 'voice.db');
  const instance = await startInstanceProcess(database, { VOICE_STREAM_ADAPTATION: empty });
  t.teardown(() => instance.stop('SIGKILL'));
  // Written to stderr before the server starts; stdout's "listening" line may come through its pipe first.
  for (const profile of ['wideband', 'narrowband']) {
    const warning = new RegExp(
      `WARNING: no adapted acoustic model for ${profile} audio in ${path.join(empty, profile)}.*npm run adapt`,
    );
    await waitFor(`the ${profile} warning`, () => (warning.test(instance.output()) ? true : undefined), 10_000);
    t.regex(instance.output(), warning);
  }
  t.is(await instance.stop('SIGTERM'), 0);
});
