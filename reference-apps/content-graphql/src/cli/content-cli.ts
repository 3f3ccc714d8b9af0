import { parseArgs } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { exportContent } from '../domain/content-export';
import { importContent } from '../domain/content-import';
import { LOCATION_OPTIONS, openForCommand } from './cli-environment';

const USAGE = `usage: content-cli <command> [--database URL] [--assets DIR]
  export <file.json>   write the content model, all elements and their files as JSON ("-" = stdout)
  import <file.json>   load such a file into an empty database
  seed                 write the demo content if the database is empty`;

/** `npm run content -w content-graphql -- export out.json`: JSON import and export of the whole content. */
export async function runContentCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    // Unknown flags and flags without their value are errors, with node:util's message.
    parsed = parseArgs({ args: [...argv], options: LOCATION_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`content-cli: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [command, file] = parsed.positionals;
  if (!command || !['export', 'import', 'seed'].includes(command) || (command !== 'seed' && !file)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { service, close } = await openForCommand(parsed.values, env, command === 'seed');
  try {
    if (command === 'export') {
      const json = JSON.stringify(await exportContent(service.store), null, 2);
      if (file === '-') process.stdout.write(`${json}\n`);
      else await writeFile(file!, json);
      if (file !== '-') process.stdout.write(`exported to ${file}\n`);
    } else if (command === 'import') {
      const document = JSON.parse(await readFile(file!, 'utf8'));
      const { elements } = await importContent(service.store, document);
      process.stdout.write(`imported ${elements} elements from ${file}\n`);
    } else {
      process.stdout.write('demo content is in place\n');
    }
    return 0;
  } catch (error) {
    process.stderr.write(`content-cli: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await close();
  }
}

if (require.main === module) {
  runContentCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
