import { SAMPLE_ORDER } from '../contract/order';

/** What the cost table's requests carry, shared by the routes (which check them) and the runner (which sends them). */
export const COST_VALUES = {
  requestId: 'req-7f3a9c',
  session: 's-5e1d2b',
  page: 3,
  token: 'cost-token-9b2e4f',
  person: { name: 'Ada', age: 36 },
  origin: 'https://app.example',
  /** Scenario 3's 1 KB order. */
  order: SAMPLE_ORDER,
} as const;
