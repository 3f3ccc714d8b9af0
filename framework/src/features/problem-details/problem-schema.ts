import { VIOLATIONS_SCHEMA } from '../../plugin';

/** The JSON Schema of a problem details body, as the OpenAPI document shows it (`errorBody` of the handler). */
export const PROBLEM_SCHEMA = {
  type: 'object',
  description:
    "RFC 9457 problem details (application/problem+json), with rest.uws's code and, for validation failures, the violations.",
  properties: {
    type: { type: 'string', description: 'A URI naming the kind of problem (about:blank: the status says it all).' },
    title: { type: 'string', description: "The status's reason phrase." },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: {
      type: 'string',
      description: 'What went wrong with this request, for people (absent for internal errors).',
    },
    instance: { type: 'string', description: 'The path of the request.' },
    code: { type: 'string', description: 'A stable code (RU_ERR_...), for programs.' },
    violations: VIOLATIONS_SCHEMA,
  },
  required: ['type', 'title', 'status', 'instance'],
};
