/** Command-line options of `npm run bench:techempower`. */
import * as os from 'node:os';
import * as path from 'node:path';
import { RESULTS_DIR, TECHEMPOWER_DOC_PATH } from '../paths';
import { IMPLEMENTATIONS, findImplementation } from './registry';
import { DRIVERS, type Driver } from './support/world-store';
import { TEST_TYPE_KEYS, type TestTypeKey } from './test-types';

export interface TechEmpowerOptions {
  help: boolean;
  list: boolean;
  servers: string[];
  drivers: Driver[];
  pools: number[];
  types: TestTypeKey[];
  rounds: number;
  durationSec: number;
  warmupSec: number;
  sliceSec: number;
  connections: number;
  pipeline: number;
  serverCpu: number | undefined;
  clientCpu: number | undefined;
  /** `--check`: every variant verified and loaded for a second, to prove the run works; figures meaningless. */
  check: boolean;
  resultsDir: string;
  docPath: string | undefined;
  note: string | undefined;
}

export const DEFAULT_DRIVER: Driver = 'postgres';
export const DEFAULT_POOL = 4;

export const TECHEMPOWER_USAGE = `Usage: npm run bench:techempower -- [options]

  --servers a,b,...     implementations (default all): ${IMPLEMENTATIONS.map((implementation) => implementation.id).join(', ')}
  --drivers a,b         database drivers, each variant measured (default ${DEFAULT_DRIVER}): ${DRIVERS.join(', ')}
  --pools N,M           connections per server's pool, each variant measured (default ${DEFAULT_POOL})
  --types a,b,...       test types (default all): ${TEST_TYPE_KEYS.join(', ')}
  --rounds N            rounds interleaving the servers (default 3)
  --duration S          whole seconds measured per type (default 5)
  --warmup S            seconds of discarded load before each measurement (default 2)
  --slice S             servers take the measured time in turns of S seconds (default 2; 0 = one after the other)
  --connections N       keep-alive connections (default 64)
  --pipeline N          plaintext's requests per write (default 16, as TechEmpower's)
  --server-cpu N        core of the servers (default 1); PostgreSQL and wrk share the other ("none": no pinning)
  --client-cpu N        core of wrk and PostgreSQL (default 0)
  --check               a short run that proves every variant answers right and loads (1 round, 1 s, 8 connections,
                        no warm-up, no doc written): its figures mean nothing
  --results-dir PATH    where the run's JSON goes (default benchmarks/results)
  --doc PATH / --no-doc the page whose block of this machine is replaced (default docs/benchmarks/techempower.md)
  --note TEXT           a line printed above the results in the doc
  --list                list implementations and whether each can run here, then exit`;

function number(flag: string, text: string | undefined, minimum: number): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < minimum)
    throw new Error(`${flag} needs a whole number >= ${minimum}, got ${text === undefined ? 'nothing' : `"${text}"`}`);
  return value;
}

function list(flag: string, text: string | undefined): string[] {
  if (!text) throw new Error(`${flag} needs a comma-separated list`);
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function cpu(flag: string, text: string | undefined): number | undefined {
  if (text === 'none') return undefined;
  const value = number(flag, text, 0);
  if (value >= os.cpus().length) throw new Error(`${flag} ${value}: this machine has CPUs 0-${os.cpus().length - 1}`);
  return value;
}

export function parseTechEmpowerOptions(argv: string[]): TechEmpowerOptions {
  const twoCores = os.cpus().length >= 2;
  const options: TechEmpowerOptions = {
    help: false,
    list: false,
    servers: IMPLEMENTATIONS.map((implementation) => implementation.id),
    drivers: [DEFAULT_DRIVER],
    pools: [DEFAULT_POOL],
    types: [...TEST_TYPE_KEYS],
    rounds: 3,
    durationSec: 5,
    warmupSec: 2,
    sliceSec: 2,
    connections: 64,
    pipeline: 16,
    serverCpu: twoCores ? 1 : undefined,
    clientCpu: twoCores ? 0 : undefined,
    check: false,
    resultsDir: RESULTS_DIR,
    docPath: TECHEMPOWER_DOC_PATH,
    note: undefined,
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++index];
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--list':
        options.list = true;
        break;
      case '--servers':
        options.servers = list(flag, value()).map((id) => findImplementation(id).id);
        break;
      case '--drivers':
        options.drivers = list(flag, value()).map((driver) => {
          if (!DRIVERS.includes(driver as Driver))
            throw new Error(`unknown driver "${driver}"; known: ${DRIVERS.join(', ')}`);
          return driver as Driver;
        });
        break;
      case '--pools':
        options.pools = list(flag, value()).map((pool) => number(flag, pool, 1));
        break;
      case '--types':
        options.types = list(flag, value()).map((type) => {
          if (!TEST_TYPE_KEYS.includes(type as TestTypeKey))
            throw new Error(`unknown test type "${type}"; known: ${TEST_TYPE_KEYS.join(', ')}`);
          return type as TestTypeKey;
        });
        break;
      case '--rounds':
        options.rounds = number(flag, value(), 1);
        break;
      case '--duration':
        options.durationSec = number(flag, value(), 1);
        break;
      case '--warmup':
        options.warmupSec = number(flag, value(), 0);
        break;
      case '--slice':
        options.sliceSec = number(flag, value(), 0);
        break;
      case '--connections':
        options.connections = number(flag, value(), 1);
        break;
      case '--pipeline':
        options.pipeline = number(flag, value(), 2);
        break;
      case '--server-cpu':
        options.serverCpu = cpu(flag, value());
        break;
      case '--client-cpu':
        options.clientCpu = cpu(flag, value());
        break;
      case '--check':
        options.check = true;
        break;
      case '--results-dir':
        options.resultsDir = path.resolve(value() ?? '');
        break;
      case '--doc':
        options.docPath = value();
        break;
      case '--no-doc':
        options.docPath = undefined;
        break;
      case '--note':
        options.note = value();
        break;
      default:
        throw new Error(`unknown option "${arg}"\n\n${TECHEMPOWER_USAGE}`);
    }
  }
  if (options.check) {
    Object.assign(options, {
      rounds: 1,
      durationSec: 1,
      warmupSec: 0,
      sliceSec: 0,
      connections: 8,
      docPath: undefined,
    });
  }
  return options;
}
