import { parseArgs } from 'node:util';
import { expandScope } from '../domain/access/scope';
import { LOCATION_OPTIONS, openForCommand } from './cli-environment';

const OPTIONS = {
  ...LOCATION_OPTIONS,
  scope: { type: 'string' },
  schema: { type: 'string' },
  expires: { type: 'string' },
  disabled: { type: 'boolean' },
} as const;

const USAGE = `usage: access-cli <command> [--database URL] [--assets DIR]
  schemas list
  schemas create <name> --scope <items>     items: sections.news,volumes.images,usergroups.everyone,... ("*" for all of a kind)
  schemas scope <schema> --scope <items>    replace the scope of a schema (the public one too)
  schemas delete <schema>
  tokens list
  tokens create <name> --schema <schema> [--expires <date>] [--disabled]   prints the secret once
  tokens enable|disable|delete <token>
  tokens expires <token> <date|never>
  public enable|disable                      the public schema (used when a request has no token)
<schema> and <token> are an id, a uid or a name.`;

/** `npm run access -w content-graphql -- tokens create app --schema "News"`: GraphQL schemas and tokens. */
export async function runAccessCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    // Unknown flags and flags without their value are errors, with node:util's message.
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`access-cli: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const flags = parsed.values;
  const [group, command, target, extra] = parsed.positionals;
  if (!group || (!command && group !== 'help')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { service, close } = await openForCommand(flags, env, true);
  const access = service.access;
  const ref = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : (value ?? ''));
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  try {
    const scope = async () =>
      expandScope((flags.scope ?? '').split(',').filter(Boolean), await service.store.catalog());
    switch (`${group} ${command}`) {
      case 'schemas list':
        print(await access.listSchemas());
        break;
      case 'schemas create':
        print(await access.createSchema(target ?? '', await scope()));
        break;
      case 'schemas scope':
        print(await access.updateSchemaScope((await access.getSchema(ref(target))).id, await scope()));
        break;
      case 'schemas delete':
        await access.deleteSchema((await access.getSchema(ref(target))).id);
        print({ deleted: target });
        break;
      case 'tokens list':
        print(await access.listTokens());
        break;
      case 'tokens create': {
        const schema = await access.getSchema(ref(flags.schema));
        const { token, record } = await access.createToken({
          name: target ?? '',
          schemaId: schema.id,
          expiryDate: flags.expires ?? null,
          enabled: flags.disabled !== true,
        });
        print({ ...record, token });
        process.stderr.write('Keep the token now: only its hash is stored.\n');
        break;
      }
      case 'tokens enable':
        print(await access.setTokenEnabled((await access.getToken(ref(target))).id, true));
        break;
      case 'tokens disable':
        print(await access.setTokenEnabled((await access.getToken(ref(target))).id, false));
        break;
      case 'tokens delete':
        await access.deleteToken((await access.getToken(ref(target))).id);
        print({ deleted: target });
        break;
      case 'tokens expires':
        print(
          await access.setTokenExpiry(
            (await access.getToken(ref(target))).id,
            extra === 'never' ? null : (extra ?? null),
          ),
        );
        break;
      case 'public enable':
      case 'public disable': {
        const token = (await access.listTokens()).find((t) => t.isPublic)!;
        print(await access.setTokenEnabled(token.id, command === 'enable'));
        break;
      }
      default:
        process.stderr.write(`${USAGE}\n`);
        return 2;
    }
    return 0;
  } catch (error) {
    process.stderr.write(`access-cli: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await close();
  }
}

if (require.main === module) {
  runAccessCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
