/** Request ids: taken from the request when well formed, generated otherwise, sent back, logged. */
export { requestId, type RequestIdOptions } from './request-id-plugin';
export { requestIdOf } from '../../plugin';
