/** Cross-origin resource sharing as a plugin. */
export { cors, corsOptionsOf } from './cors-plugin';
export type { CorsOptions } from './cors-options';
