/** Liveness and readiness endpoints, answered before routing. */
export { health, type HealthOptions } from './health-plugin';
export type { ReadinessCheck } from './readiness';
