/** RFC 9457 problem details for every framework error. */
export { problemDetails, ProblemDetailsHandler, type ProblemDetailsOptions } from './problem-details-plugin';
