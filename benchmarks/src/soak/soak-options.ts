/** Command-line options of `npm run soak`. */
import * as os from 'node:os';
import * as path from 'node:path';
import { CHARTS_DIR, REPOSITORY_ROOT, RESULTS_DIR } from '../paths';
import { DEFAULT_THRESHOLDS, type FlatnessThresholds } from './flatness';
import type { LoadShape } from './soak-target';
import { SOAK_TARGETS, findTarget } from './targets/registry';

export const RELIABILITY_DOC = path.join(REPOSITORY_ROOT, 'docs', 'reliability', 'long-load.md');

export interface SoakOptions {
  help: boolean;
  list: boolean;
  targets: string[];
  durationSec: number;
  intervalSec: number;
  load: Partial<LoadShape>;
  serverCpu: number | undefined | 'auto';
  clientCpu: number | undefined | 'auto';
  /** Only the thresholds given on the command line: they win over each target's own. */
  thresholds: Partial<FlatnessThresholds>;
  voiceSessions: number;
  nodeFlags: string[];
  docPath: string | undefined;
  chartsDir: string;
  resultsDir: string;
  keepData: boolean;
  /** Take heap snapshots of each server after warm-up and at the end (into results-dir/heap). */
  heapSnapshots: boolean;
  /** A saved run (JSON) to judge again with these thresholds instead of running the load. */
  rejudgeFile: string | undefined;
}

export const SOAK_USAGE = `Usage: npm run soak -- [options]     (from benchmarks/, or npm run -w benchmarks soak -- ...)

  --targets a,b         targets (default: all): ${SOAK_TARGETS.map((target) => target.id).join(', ')}
  --duration S          seconds of load per target (default 600)
  --interval S          seconds per sample: one wrk run, then RSS, CPU and errors are read (default 10)
  --connections N --pipeline N   override the target's wrk shape (each target has its own default; the app
                        mixes run one wrk thread per connection, --threads N applies to framework-hello)
  --rate N              requests per second the wrk script holds itself to (0 = as fast as answered)
  --voice-sessions N    simultaneous WebSocket speech sessions of voice-stream (default 2)
  --server-cpu N|none   core of the server (default: 1 when the target pins, else none)
  --client-cpu N|none   core of wrk (default 0)
  --warmup-fraction F   share of the run left out of the RSS criterion (default ${DEFAULT_THRESHOLDS.warmupFraction})
  --max-slope MB        RSS slope after warm-up allowed, MB per minute (default ${DEFAULT_THRESHOLDS.maxSlopeMBPerMin})
  --max-rise MB         largest RSS rise after warm-up allowed (from a sample to a later one), MB (default ${DEFAULT_THRESHOLDS.maxRiseMB};
                        voice-stream 48: see docs/reliability/long-load.md). These three override every target's own values
  --node-flags "..."    extra flags for the server's node (e.g. "--max-semi-space-size=1")
  --heap-snapshots      heap snapshots of each server after warm-up and at the end, and what grew between
                        them (into results-dir/heap; writing one stops the server for seconds: not for figures)
  --doc [PATH]          write each target's results into its block of docs/reliability/long-load.md (or PATH)
  --charts-dir PATH     where soak-<target>.svg goes (default benchmarks/charts)
  --results-dir PATH    where the raw JSON goes (default benchmarks/results)
  --keep-data           keep each target's database and files (the folder is printed)
  --rejudge FILE        no load: judge a saved run (results/soak-*.json) again with the thresholds given,
                        and print and write its outputs (charts, --doc) as a run would
  --list                list the targets and whether each can run here
  --help                this text

Exit code: 0 when every target passed, 1 when one failed (errors, or RSS not flat), 2 on a usage error.`;

function wholeNumber(name: string, text: string | undefined, minimum: number): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || value < minimum) {
    throw new Error(`${name} needs a whole number >= ${minimum}, got ${text === undefined ? 'nothing' : `"${text}"`}`);
  }
  return value;
}

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value < 0)
    throw new Error(`${name} needs a number >= 0, got ${text === undefined ? 'nothing' : `"${text}"`}`);
  return value;
}

function cpu(name: string, text: string | undefined): number | undefined {
  if (text === 'none') return undefined;
  const value = wholeNumber(name, text, 0);
  if (value >= os.cpus().length) throw new Error(`${name} ${value}: this machine has CPUs 0-${os.cpus().length - 1}`);
  return value;
}

export function parseSoakOptions(argv: string[]): SoakOptions {
  const options: SoakOptions = {
    help: false,
    list: false,
    targets: SOAK_TARGETS.map((target) => target.id),
    durationSec: 600,
    intervalSec: 10,
    load: {},
    serverCpu: 'auto',
    clientCpu: 'auto',
    thresholds: {},
    voiceSessions: 2,
    nodeFlags: [],
    docPath: undefined,
    chartsDir: CHARTS_DIR,
    resultsDir: RESULTS_DIR,
    keepData: false,
    rejudgeFile: undefined,
    heapSnapshots: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
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
      case '--targets': {
        const text = value();
        if (!text) throw new Error('--targets needs a comma-separated list');
        options.targets = text.split(',').map((item) => findTarget(item.trim()).id);
        break;
      }
      case '--duration':
        options.durationSec = wholeNumber(flag, value(), 1);
        break;
      case '--interval':
        options.intervalSec = wholeNumber(flag, value(), 1);
        break;
      case '--threads':
        options.load.threads = wholeNumber(flag, value(), 1);
        break;
      case '--connections':
        options.load.connections = wholeNumber(flag, value(), 1);
        break;
      case '--pipeline':
        options.load.pipeline = wholeNumber(flag, value(), 1);
        break;
      case '--rate': {
        const rate = wholeNumber(flag, value(), 0);
        options.load.requestsPerSecLimit = rate === 0 ? undefined : rate;
        break;
      }
      case '--voice-sessions':
        options.voiceSessions = wholeNumber(flag, value(), 0);
        break;
      case '--server-cpu':
        options.serverCpu = cpu(flag, value());
        break;
      case '--client-cpu':
        options.clientCpu = cpu(flag, value());
        break;
      case '--warmup-fraction': {
        const fraction = positive(flag, value());
        if (fraction >= 1) throw new Error(`${flag} must be below 1, got ${fraction}`);
        options.thresholds.warmupFraction = fraction;
        break;
      }
      case '--max-slope':
        options.thresholds.maxSlopeMBPerMin = positive(flag, value());
        break;
      case '--max-rise':
        options.thresholds.maxRiseMB = positive(flag, value());
        break;
      case '--node-flags':
        options.nodeFlags = (value() ?? '').split(/\s+/).filter(Boolean);
        break;
      case '--doc': {
        // The path is optional: the next argument is one unless it is another option.
        const next = inline ?? (argv[index + 1] && !argv[index + 1].startsWith('--') ? argv[++index] : undefined);
        options.docPath = next ?? RELIABILITY_DOC;
        break;
      }
      case '--charts-dir':
        options.chartsDir = value();
        break;
      case '--results-dir':
        options.resultsDir = value();
        break;
      case '--keep-data':
        options.keepData = true;
        break;
      case '--heap-snapshots':
        options.heapSnapshots = true;
        break;
      case '--rejudge':
        options.rejudgeFile = value();
        if (!options.rejudgeFile) throw new Error('--rejudge needs the JSON file of a run');
        break;
      default:
        throw new Error(`unknown option "${arg}"\n\n${SOAK_USAGE}`);
    }
  }
  if (options.intervalSec > options.durationSec)
    throw new Error(`--interval (${options.intervalSec} s) is longer than --duration (${options.durationSec} s)`);
  return options;
}
