/** What a soak target is: how to start its server on a fresh database, the wrk mix, and any load beside wrk. */
import type { FlatnessThresholds } from './flatness';
import type { AppProcess } from './process/app-process';
import type { StreamingIntervalCounts } from './soak-results';
import type { WrkPlan } from './soak-wrk';

export interface LoadShape {
  threads: number;
  connections: number;
  pipeline: number;
  /** Overall request rate the Lua script holds itself to; undefined = as fast as the server answers. */
  requestsPerSecLimit: number | undefined;
}

export interface TargetContext {
  /** A fresh folder for this target only (database, fixtures, wrk state); removed after the run. */
  workDir: string;
  serverCpu: number | undefined;
  /** Extra node flags for the server (e.g. --heapsnapshot-signal=SIGUSR2). */
  nodeFlags: string[];
  /** The server's working folder (where heap snapshots land); undefined = the runner's. */
  serverCwd: string | undefined;
  load: LoadShape;
  /** Simultaneous WebSocket sessions, for targets that stream beside wrk. */
  streamingSessions: number;
  log: (line: string) => void;
}

/** Load that runs beside wrk for the whole soak (the voice-stream's WebSocket sessions). */
export interface SideLoad {
  start(): void;
  /** What happened since the previous call. */
  takeInterval(): StreamingIntervalCounts;
  /** Stops starting sessions, waits for those running, and returns what happened since the last interval. */
  stop(): Promise<StreamingIntervalCounts>;
}

export interface PreparedTarget {
  server: AppProcess;
  plan: WrkPlan;
  /** One sentence for the report: the mix and what is created how. */
  description: string;
  sideLoad?: SideLoad;
  /** Runs before each interval's wrk (e.g. to replace a session whose token an interval's end lost). */
  beforeInterval?(): Promise<void>;
  /** The runner's own request after each interval: undefined when the answer is right, else what was wrong. */
  check?(): Promise<string | undefined>;
  /** Releases what prepare() made besides the server (the runner stops the server). */
  close?(): Promise<void>;
}

export interface SoakTarget {
  id: string;
  label: string;
  defaultLoad: LoadShape;
  /** Pin the server to one core (and wrk to the other) by default. The voice stream is not pinned: its engines need both. */
  pinServerByDefault: boolean;
  /** Where this target's flat-RSS criterion differs from the default, and why (printed with its results). */
  thresholds?: { values: Partial<FlatnessThresholds>; reason: string };
  /** Why the target cannot run here (not built, a tool missing), or undefined. */
  unavailableReason(): string | undefined;
  prepare(context: TargetContext): Promise<PreparedTarget>;
}
