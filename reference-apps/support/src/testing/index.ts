// Test machinery shared by the reference apps (import from 'app-support/testing'): the hostile-input corpus that
// attacks every route of an app over real HTTP, the raw HTTP/1.1 client it sends with, database snapshots, and the
// check that an app's answers are the ones its OpenAPI document describes.
export {
  RawHttpConnection,
  encodeRequest,
  headerOf,
  type RawAnswer,
  type RawExchange,
  type RawHeader,
  type RawRequest,
} from './raw-http';
export { routesFromOpenApi, extraRoute, exampleFromSchema, type CorpusRoute } from './corpus-routes';
export {
  toRequest,
  type AuthProfile,
  type CorpusCase,
  type CorpusPlan,
  type Expectation,
  type RequestParts,
  type RouteSample,
} from './corpus-case';
export { buildCorpus, baseParts, authApplies } from './corpus-cases';
export {
  runCorpus,
  formatCorpusReport,
  defaultRefusalMessage,
  sortFailures,
  type CorpusRun,
  type CorpusReport,
  type PendingHole,
} from './corpus-runner';
export { snapshotDatabase, changedTables, type DatabaseSnapshot } from './database-snapshot';
export {
  SeededRandom,
  hostileStrings,
  percentEncode,
  wrongTypes,
  deepArray,
  deepObject,
  type Named,
} from './hostile-values';
export { corpusSeed } from './corpus-seed';
export { FRAMEWORK_HOLES } from './pending-holes';
export { openApiValidator, answerChecker, documentedAnswers, type SeenAnswer } from './openapi-conformance';
export { cutOffDatabase, type DatabaseOutage } from './database-outage';
export {
  probesAroundOutage,
  expectedProbeRound,
  requestOnce,
  recordingLogger,
  type ProbeRound,
  type ProbeAnswer,
  type LoggedLine,
} from './probes';
export {
  otlpReceiver,
  otlpAttribute,
  otlpResourceAttribute,
  type OtlpSpan,
  type OtlpMetricPoint,
} from './otlp-receiver';
