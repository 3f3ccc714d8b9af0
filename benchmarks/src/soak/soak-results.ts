/** The raw record of a soak run: one sample per interval per target, the verdict, and how it was run. */
import type { MachineInfo } from '../runner/results';

/** What wrk and the Lua script counted in one interval (one wrk run). */
export interface WrkIntervalCounts {
  requests: number;
  durationSec: number;
  /** connect + read + write + timeout, as wrk counted them. */
  socketErrors: number;
  socketErrorDetail: { connect: number; read: number; write: number; timeout: number };
  /** Answers with status >= 400 as wrk counted them (expected refusals of the mix included). */
  wrkStatusErrors: number;
  /** Requests sent per kind of the mix. */
  sent: Record<string, number>;
  /** Answers that were what their kind should get. */
  ok: Record<string, number>;
  /** Refusals the mix asks for on purpose (expected 4xx). */
  refused: Record<string, number>;
  /** Unexpected answers, per "kind status". */
  failed: Record<string, number>;
  /** The first few unexpected answers, for the report. */
  samples: string[];
  latencyUs: { mean: number; p50: number; p99: number; max: number };
  /** What wrk wrote to stderr (Lua errors: wrk reports them and goes on); each line counts as an error. */
  scriptErrors: string[];
}

/** WebSocket sessions of the voice-stream target within one interval. */
export interface StreamingIntervalCounts {
  started: number;
  completed: number;
  failed: number;
  /** Concluded target-language segments received. */
  phrases: number;
  /** End of a phrase in the audio to its concluded translation, p95 in ms (NaN without phrases). */
  translationP95Ms: number;
  failures: string[];
}

export interface IntervalSample {
  index: number;
  /** Seconds from the start of the load to the end of this interval. */
  elapsedSec: number;
  requestsPerSec: number;
  /** Unexpected answers + socket errors + failed streaming sessions + a wrong answer to the runner's own check. */
  errors: number;
  /** VmRSS of the server at the end of the interval, MB. */
  rssMB: number;
  /** Highest VmRSS read during the interval (read every second), MB. */
  peakRssMB: number;
  /** Anonymous and file-backed parts of the RSS and the thread count at the end of the interval. */
  rssAnonMB?: number;
  rssFileMB?: number;
  threads?: number;
  /** Server CPU time over the interval's wall time (100 = one core busy). */
  serverCpuPercent: number;
  loadAverage1m: number;
  wrk: WrkIntervalCounts;
  streaming?: StreamingIntervalCounts;
  /** The runner's own request after the interval (e.g. the hello body), when it was wrong. */
  checkFailure?: string;
}

export interface RssVerdict {
  /** Samples left out as warm-up. */
  warmupSamples: number;
  /** Least-squares slope of RSS over time after warm-up, MB per minute. */
  slopeMBPerMin: number;
  /** Largest increase from one sample after warm-up to a later one, MB. */
  riseMB: number;
  /** Highest minus lowest RSS after warm-up, MB (for the report; drops are not growth). */
  rangeMB: number;
  minMB: number;
  maxMB: number;
  maxSlopeMBPerMin: number;
  maxRiseMB: number;
  flat: boolean;
}

export interface TargetVerdict {
  errors: number;
  noErrors: boolean;
  rss: RssVerdict;
  pass: boolean;
  /** One line per criterion, as printed. */
  lines: string[];
}

export interface TargetRun {
  target: string;
  label: string;
  /** What the load was, in words (for the report). */
  description: string;
  startedAt: string;
  intervalSec: number;
  durationSec: number;
  /** wrk settings of the target. */
  wrk: { threads: number; connections: number; pipeline: number; requestsPerSecLimit: number | undefined };
  serverCpu: number | undefined;
  clientCpu: number | undefined;
  serverStartupMs: number;
  /** RSS right after the server was ready, before any load. */
  idleRssMB: number;
  samples: IntervalSample[];
  totalRequests: number;
  meanRequestsPerSec: number;
  loadAverage: { start: number; end: number; min: number; max: number };
  /** The server's last stderr lines, when it wrote any. */
  serverStderrTail: string;
  /** The flat-RSS criterion this target was judged by, and why it differs from the default if it does. */
  thresholds: { warmupFraction: number; maxSlopeMBPerMin: number; maxRiseMB: number };
  thresholdsReason?: string;
  /** Set when the target could not be run to its end (server died, set-up failed). */
  abortedReason?: string;
  verdict: TargetVerdict;
}

export interface SoakRun {
  startedAt: string;
  command: string;
  machine: MachineInfo;
  /** Thresholds given on the command line (each target's are in its run). */
  thresholds: Partial<{ warmupFraction: number; maxSlopeMBPerMin: number; maxRiseMB: number }>;
  targets: TargetRun[];
}
