#!/usr/bin/env node
/**
 * npm create rest-uws [folder] [--esm] [--rest-uws <version|tarball>]
 * Writes a new rest.uws project into the folder (rest-uws-api when none is given) and asks nothing.
 */
import * as path from 'node:path';
import { createProject, UsageError } from './create-project';
import { thisMachine } from './uws-build';

const USAGE = `Usage: npm create rest-uws [folder] [-- --esm] [--rest-uws <version|tarball>]
  folder       where to write the project (default: rest-uws-api); must not exist or be empty
  --esm        ES modules ("type": "module") instead of CommonJS
  --rest-uws   the rest.uws dependency (default: ^${require('../../package.json').version}); a .tgz path installs a packed build`;

function main(argv: string[]): number {
  let folder: string | undefined;
  let esm = false;
  let restUws = `^${require('../../package.json').version as string}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return 0;
    } else if (arg === '--esm') esm = true;
    else if (arg === '--rest-uws' && argv[i + 1] !== undefined) restUws = argv[++i]!;
    else if (arg.startsWith('--rest-uws=')) restUws = arg.slice('--rest-uws='.length);
    else if (!arg.startsWith('-') && folder === undefined) folder = arg;
    else {
      console.error(`create-rest-uws: unexpected argument ${arg}\n${USAGE}`);
      return 1;
    }
  }
  folder ??= 'rest-uws-api';
  let created;
  try {
    created = createProject({ folder, esm, restUws, machine: thisMachine() });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`create-rest-uws: ${err.message}`);
    return 1;
  }
  console.log(`Created ${created.name} (${esm ? 'ES modules' : 'CommonJS'}) in ${created.folder}`);
  console.log(`uWebSockets.js: ${created.uws}`);
  if (created.warning !== undefined) console.log(`\nWarning: ${created.warning}`);
  const cd = path.relative(process.cwd(), created.folder) || '.';
  console.log(`\nNext:\n  cd ${/\s/.test(cd) ? JSON.stringify(cd) : cd}\n  npm install\n  npm run dev`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
