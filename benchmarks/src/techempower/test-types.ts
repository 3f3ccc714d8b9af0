/**
 * TechEmpower's six test types as the harness's scenarios: the request wrk sends (with the Accept header of
 * TechEmpower's own load) and the verifier's check, which a server must pass before it is measured. Numbered in
 * TechEmpower's order; plaintext is measured pipelined only, the others with one request per write.
 */
import type { Scenario, ScenarioId } from '../scenarios/scenario';
import { PATHS } from './contract';
import { ACCEPT, checkDb, checkFortunes, checkJson, checkPlaintext, checkQueries, checkUpdates } from './verify/checks';
import type { VerifierDatabase } from './verify/verifier-database';

/** Rows per request of the multiple-queries and updates types: the largest count TechEmpower's runs use. */
export const QUERIES_PER_REQUEST = 20;
/** Requests per write for plaintext, as TechEmpower's pipelined load sends. */
export const PLAINTEXT_PIPELINE = 16;

export const TEST_TYPE_KEYS = ['json', 'db', 'queries', 'fortunes', 'updates', 'plaintext'] as const;
export type TestTypeKey = (typeof TEST_TYPE_KEYS)[number];

export function createTestTypes(database: VerifierDatabase): Scenario[] {
  const plain = (
    id: ScenarioId,
    key: TestTypeKey,
    title: string,
    path: string,
    accept: string,
    check: (baseUrl: string) => Promise<void>,
  ): Scenario => ({
    id,
    key,
    title,
    method: 'GET',
    path,
    headers: { Accept: accept },
    pipelined: false,
    modes: ['plain'],
    check,
  });
  return [
    plain(1, 'json', 'JSON serialization', PATHS.json, ACCEPT.json, checkJson),
    plain(2, 'db', 'Single query', PATHS.db, ACCEPT.json, (baseUrl) => checkDb(baseUrl, database)),
    plain(
      3,
      'queries',
      `Multiple queries (${QUERIES_PER_REQUEST})`,
      `${PATHS.queries}?queries=${QUERIES_PER_REQUEST}`,
      ACCEPT.json,
      (baseUrl) => checkQueries(baseUrl, database),
    ),
    plain(4, 'fortunes', 'Fortunes', PATHS.fortunes, ACCEPT.html, (baseUrl) => checkFortunes(baseUrl, database)),
    plain(
      5,
      'updates',
      `Updates (${QUERIES_PER_REQUEST})`,
      `${PATHS.updates}?queries=${QUERIES_PER_REQUEST}`,
      ACCEPT.json,
      (baseUrl) => checkUpdates(baseUrl, database),
    ),
    {
      id: 6,
      key: 'plaintext',
      title: `Plaintext (${PLAINTEXT_PIPELINE} pipelined)`,
      method: 'GET',
      path: PATHS.plaintext,
      headers: { Accept: ACCEPT.plaintext },
      pipelined: true,
      modes: ['pipelined'],
      check: checkPlaintext,
    },
  ];
}
