#!/usr/bin/env node
/**
 * `npx rest-uws client`: writes a typed client (TypeScript) from an app's OpenAPI and AsyncAPI documents, read from
 * a running server (`--url`) or from files (`--openapi`, `--asyncapi`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errors } from '../../plugin';
import { generateClient, type ClientDocuments } from './client-generator';

const USAGE = `usage: rest-uws client --url <server> [--openapi-path /openapi.json] [--asyncapi-path /asyncapi.json] --out <file.ts>
       rest-uws client --openapi <openapi.json> [--asyncapi <asyncapi.json>] --out <file.ts>`;

async function fetchJson(url: string, optional: boolean): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (optional && response.status === 404) return undefined;
  if (!response.ok) throw errors.RU_ERR_CLIENT(`rest-uws client: ${url} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Runs the command with its arguments (after `rest-uws`); returns the exit code. */
export async function runClientCli(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i]!;
    const value = rest[i + 1];
    if (!name.startsWith('--') || value === undefined) {
      console.error(USAGE);
      return 2;
    }
    flags.set(name.slice(2), value);
  }
  const out = flags.get('out');
  if (
    command !== 'client' ||
    out === undefined ||
    flags.has('url') === (flags.has('openapi') || flags.has('asyncapi'))
  ) {
    console.error(USAGE);
    return 2;
  }
  const documents: ClientDocuments = {};
  const url = flags.get('url');
  if (url !== undefined) {
    const base = url.replace(/\/+$/, '');
    documents.openapi = await fetchJson(base + (flags.get('openapi-path') ?? '/openapi.json'), true);
    documents.asyncapi = await fetchJson(base + (flags.get('asyncapi-path') ?? '/asyncapi.json'), true);
  } else {
    const read = (file: string | undefined) =>
      file === undefined ? undefined : (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>);
    documents.openapi = read(flags.get('openapi'));
    documents.asyncapi = read(flags.get('asyncapi'));
  }
  const source = generateClient(documents);
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, source);
  console.log(`rest-uws client: wrote ${out} (${source.length} characters)`);
  return 0;
}

if (require.main === module) {
  runClientCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
