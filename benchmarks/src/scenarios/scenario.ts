/** What one benchmark scenario is: the request wrk sends, and the check a server must pass before it is measured. */
import type { Mode } from '../runner/results';

export type ScenarioId = 1 | 2 | 3 | 4 | 5 | 6;

export interface Scenario {
  id: ScenarioId;
  /** Short name for tables and command-line selection. */
  key: string;
  title: string;
  method: 'GET' | 'POST';
  /** Path and query wrk requests. */
  path: string;
  headers: Record<string, string>;
  /** Request body file (written by the runner's fixtures), for POST. */
  bodyFile?: string;
  /** Pipelining 10 copies of this request measures something (false for the 1 MB file, which is bandwidth-bound). */
  pipelined: boolean;
  /** The only modes this scenario is measured in, whatever the run's (TechEmpower's plaintext: pipelined only). */
  modes?: Mode[];
  /** Fails with what was expected and what came, when a server answers this scenario wrongly. */
  check(baseUrl: string): Promise<void>;
  /** Checks done after the load ran (scenario 5: the event fired for every request), given the requests wrk counted. */
  checkAfterLoad?(baseUrl: string, requestsSent: number, before: unknown): Promise<void>;
  /** State read before the load (scenario 5: the event count). */
  stateBeforeLoad?(baseUrl: string): Promise<unknown>;
}

export class ScenarioCheckError extends Error {
  constructor(scenario: string, what: string, expected: unknown, received: unknown) {
    super(`${scenario}: ${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(received)}`);
  }
}
