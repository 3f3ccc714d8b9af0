/** The JSON Schema of an error body's `violations` (every `ConstraintViolation` of a validation failure), for API documents. */
export const VIOLATIONS_SCHEMA = {
  type: 'array',
  description: 'Every broken constraint, when validation failed (RU_ERR_VALIDATION).',
  items: {
    type: 'object',
    properties: {
      in: { type: 'string', description: 'Where the value came from: body, query, path, header, cookie...' },
      path: { type: 'string', description: 'The property path in that value, or the parameter name.' },
      constraint: { type: 'string', description: 'The constraint broken (isEmail, min...).' },
      message: { type: 'string' },
    },
    required: ['path', 'constraint', 'message'],
  },
};
