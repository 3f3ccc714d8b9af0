// The process `npm run dev` serves the app from. It loads the dependencies first (rest.uws, uWebSockets.js, the
// validators), then waits; told to run, it loads only the app's own compiled files. The dev script keeps one
// waiting ahead of every restart, so a restart does not wait for Node and the dependencies to load.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const name of Object.keys(dependencies)) {
  try {
    await import(name);
  } catch {
    // Not loadable on its own (a package without an entry point): the app loads it as it needs it.
  }
}

process.once('message', async ({ run }) => {
  // The IPC channel does not keep the process alive: the app's server does.
  process.channel?.unref();
  process.argv[1] = run;
  try {
    await import(pathToFileURL(run).href);
    process.send?.({ started: true });
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
});
process.send({ ready: true });
