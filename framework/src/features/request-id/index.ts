/** Request ids: taken from the request when well formed, generated otherwise, sent back, logged. */
export { requestId, requestIdOf, type RequestIdOptions } from './request-id-plugin';
export { isWellFormedRequestId } from './request-id-format';
