/** Command-line options of `npm run bench`. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ALL_MODES, type Mode } from '../runner/results';
import { ALL_SCENARIO_IDS } from '../scenarios/scenarios';
import type { ScenarioId } from '../scenarios/scenario';
import { BASELINE_SUFFIX, SERVERS, findServer } from '../servers/registry';
import { CHARTS_DIR, COSTS_DOC_PATH, DATA_DIR, DOC_PATH, RESULTS_DIR } from '../paths';

export interface CliOptions {
  help: boolean;
  list: boolean;
  setup: boolean;
  servers: string[];
  scenarios: ScenarioId[];
  modes: Mode[];
  rounds: number;
  durationSec: number;
  warmupSec: number;
  sliceSec: number;
  connections: number;
  pipeline: number;
  serverCpu: number | undefined;
  clientCpu: number | undefined;
  docPath: string | undefined;
  chartsDir: string;
  resultsDir: string;
  dataDir: string;
  note: string | undefined;
  profile: boolean;
  /** `--costs`: the cost table instead of the scenarios. */
  costs: boolean;
  /** `--rows`: the cost table's rows to run (default all). */
  rows: string[] | undefined;
  /** `--baseline`: another checkout whose rest.uws servers run beside this one's (`<server>@before`, and every costs app). */
  baseline: string | undefined;
}

/** Defaults of the cost table where they differ from the scenario runs' (see docs/benchmarks/costs.md). */
export const COST_DEFAULTS = { rounds: 5, durationSec: 3, warmupSec: 1, modes: ['pipelined'] as Mode[] };

export const USAGE = `Usage: npm run bench -- [options]

  --servers a,b,...     servers to run (default: all): ${SERVERS.map((server) => server.id).join(', ')}
  --scenarios 1,2,...   scenarios (default: 1-6): 1 hello, 2 user, 3 order, 4 static, 5 auth, 6 routes
  --modes plain,pipelined   load modes (default: both)
  --rounds N            rounds interleaving the servers (default 3)
  --duration S          whole seconds measured per scenario and mode (default 5; wrk counts whole seconds)
  --warmup S            whole seconds of discarded warm-up before each measurement (default 2; 0 = none)
  --slice S             the servers of a round run at once and take the measured time in turns of S seconds
                        (A B C, C B A, ...), so the ones compared are measured seconds apart (default 2;
                        0 = each server alone for its whole duration, one after the other)
  --connections N       keep-alive connections (default 64)
  --pipeline N          requests per write in pipelined mode (default 10)
  --server-cpu N        core the server is pinned to (default 1; "none" to not pin)
  --client-cpu N        core wrk is pinned to (default 0; "none" to not pin)
  --doc PATH            Markdown page to update (default docs/benchmarks/results.md, with --costs
                        docs/benchmarks/costs.md); --no-doc to skip
  --charts-dir PATH     where the SVG charts go (default benchmarks/charts; with --no-doc, the results dir)
  --results-dir PATH    where the raw JSON of the run goes (default benchmarks/results)
  --note TEXT           a line printed above the results in the doc
  --profile             run servers under node --cpu-prof; print where their time went (results-dir/profiles)
  --costs               the cost table instead: CPU per request of each feature against the bare route
                        (defaults then: --modes pipelined --rounds 5 --duration 3 --warmup 1)
  --rows a,b,...        with --costs: the rows to run (default all; bare and raw are always added)
  --baseline PATH       another checkout of this repository, built (npx tsc -b): its servers run beside this
                        one's in the same rounds: --servers rest-uws,rest-uws@before, and every costs app
  --setup               install wrk/taskset (apt-get, as root) and hyper-express/ultimate-express, then exit
  --list                list servers and whether each can run here, then exit
  --help                this text`;

function positiveNumber(name: string, text: string | undefined, integer: boolean): number {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new Error(
      `${name} needs a ${integer ? 'whole ' : ''}number >= 0, got ${text === undefined ? 'nothing' : `"${text}"`}`,
    );
  }
  return value;
}

function cpuOption(name: string, text: string | undefined): number | undefined {
  if (text === 'none') return undefined;
  const cpu = positiveNumber(name, text, true);
  if (cpu >= os.cpus().length) throw new Error(`${name} ${cpu}: this machine has CPUs 0-${os.cpus().length - 1}`);
  return cpu;
}

function list(text: string | undefined, name: string): string[] {
  if (!text) throw new Error(`${name} needs a comma-separated list`);
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function parseOptions(argv: string[]): CliOptions {
  const twoCores = os.cpus().length >= 2;
  const options: CliOptions = {
    help: false,
    list: false,
    setup: false,
    servers: SERVERS.map((server) => server.id),
    scenarios: [...ALL_SCENARIO_IDS],
    modes: [...ALL_MODES],
    rounds: 3,
    durationSec: 5,
    warmupSec: 2,
    sliceSec: 2,
    connections: 64,
    pipeline: 10,
    serverCpu: twoCores ? 1 : undefined,
    clientCpu: twoCores ? 0 : undefined,
    docPath: DOC_PATH,
    chartsDir: CHARTS_DIR,
    resultsDir: RESULTS_DIR,
    dataDir: DATA_DIR,
    note: undefined,
    profile: false,
    costs: false,
    rows: undefined,
    baseline: undefined,
  };
  let chartsDirGiven = false;
  const given = new Set<string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++index];
    given.add(flag);
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--list':
        options.list = true;
        break;
      case '--setup':
        options.setup = true;
        break;
      case '--servers':
        options.servers = list(value(), flag).map((id) =>
          id.endsWith(BASELINE_SUFFIX)
            ? `${findServer(id.slice(0, -BASELINE_SUFFIX.length)).id}${BASELINE_SUFFIX}`
            : findServer(id).id,
        );
        break;
      case '--costs':
        options.costs = true;
        break;
      case '--rows':
        options.rows = list(value(), flag);
        break;
      case '--baseline': {
        const checkout = value();
        if (!checkout || !fs.existsSync(path.join(checkout, 'benchmarks', 'dist', 'src'))) {
          throw new Error(
            `--baseline needs a checkout of this repository whose benchmarks are built (npx tsc -b), got ${checkout === undefined ? 'nothing' : `"${checkout}"`}`,
          );
        }
        options.baseline = path.resolve(checkout);
        break;
      }
      case '--scenarios':
        options.scenarios = list(value(), flag).map((item) => {
          const id = Number(item) as ScenarioId;
          if (!ALL_SCENARIO_IDS.includes(id))
            throw new Error(`unknown scenario "${item}"; known: ${ALL_SCENARIO_IDS.join(', ')}`);
          return id;
        });
        break;
      case '--modes':
        options.modes = list(value(), flag).map((item) => {
          if (!ALL_MODES.includes(item as Mode))
            throw new Error(`unknown mode "${item}"; known: ${ALL_MODES.join(', ')}`);
          return item as Mode;
        });
        break;
      case '--rounds':
        options.rounds = Math.max(1, positiveNumber(flag, value(), true));
        break;
      case '--duration':
        options.durationSec = Math.max(1, positiveNumber(flag, value(), true));
        break;
      case '--warmup':
        options.warmupSec = positiveNumber(flag, value(), true);
        break;
      case '--slice':
        options.sliceSec = positiveNumber(flag, value(), true);
        break;
      case '--connections':
        options.connections = Math.max(1, positiveNumber(flag, value(), true));
        break;
      case '--pipeline':
        options.pipeline = Math.max(2, positiveNumber(flag, value(), true));
        break;
      case '--server-cpu':
        options.serverCpu = cpuOption(flag, value());
        break;
      case '--client-cpu':
        options.clientCpu = cpuOption(flag, value());
        break;
      case '--doc':
        options.docPath = value();
        break;
      case '--no-doc':
        options.docPath = undefined;
        break;
      case '--charts-dir':
        options.chartsDir = value();
        chartsDirGiven = true;
        break;
      case '--results-dir':
        options.resultsDir = value();
        break;
      case '--profile':
        options.profile = true;
        break;
      case '--note':
        options.note = value();
        break;
      default:
        throw new Error(`unknown option "${arg}"\n\n${USAGE}`);
    }
  }
  if (options.servers.some((id) => id.endsWith(BASELINE_SUFFIX)) && options.baseline === undefined) {
    throw new Error(`servers ending in ${BASELINE_SUFFIX} run from the checkout given with --baseline PATH`);
  }
  if (options.costs) {
    if (!given.has('--rounds')) options.rounds = COST_DEFAULTS.rounds;
    if (!given.has('--duration')) options.durationSec = COST_DEFAULTS.durationSec;
    if (!given.has('--warmup')) options.warmupSec = COST_DEFAULTS.warmupSec;
    if (!given.has('--modes')) options.modes = [...COST_DEFAULTS.modes];
    if (options.docPath === DOC_PATH) options.docPath = COSTS_DOC_PATH;
  } else if (options.rows !== undefined) {
    throw new Error('--rows selects rows of the cost table: use it with --costs');
  }
  // A run that writes no doc leaves the committed charts alone: its charts go with its raw results.
  if (options.docPath === undefined && !chartsDirGiven) options.chartsDir = options.resultsDir;
  return options;
}
