// npm run client: writes src/api-client.ts, the typed client of this app, with rest.uws's `rest-uws client`. The app
// is compiled and started on a free port, the command reads the /openapi.json and /asyncapi.json it serves, and the
// file is formatted as Biome formats the project. Run it again when a route or a message changes: `npm run
// typecheck` then shows the calls that no longer fit. The file imports nothing from the server: a browser or another
// service can use it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from 'rest.uws';
import { compileAll, root } from './swc.mjs';

const out = path.join('src', 'api-client.ts');

/** Runs a command of node_modules/.bin (npm run puts it on the PATH); asynchronous, as the server answers it. */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

compileAll(['src']);
const app = await import(pathToFileURL(path.join(root, 'dist', 'src', 'app.js')).href);
// A CommonJS build is imported as its module.exports.
const { buildApp } = app.default ?? app;
const server = await startServer(buildApp(), { port: 0, host: '127.0.0.1' });
try {
  await run('rest-uws', ['client', '--url', `http://127.0.0.1:${server.port}`, '--out', out]);
  await run('biome', ['format', '--write', out]);
} finally {
  await server.shutdown();
}
