/** The OpenAPI schemas of the Spoken Terms answers (plain objects: TypeScript keeps nothing of interfaces at run time). */

const COLLECTION = {
  type: 'object',
  properties: {
    spoken_terms_id: { type: 'string', description: 'A UUID' },
    name: { type: 'string' },
    term_lists: {
      type: 'array',
      items: {
        type: 'object',
        properties: { lang: { type: 'string' }, entry_count: { type: 'integer' } },
        required: ['lang', 'entry_count'],
      },
    },
    creation_time: { type: 'string', description: 'ISO 8601, e.g. 2025-08-03T14:16:18.329Z' },
  },
  required: ['spoken_terms_id', 'name', 'term_lists', 'creation_time'],
};

export const SPOKEN_TERMS_SCHEMAS = {
  collection: COLLECTION,
  list: {
    type: 'object',
    properties: { spoken_terms: { type: 'array', items: COLLECTION } },
    required: ['spoken_terms'],
  },
  entries: {
    type: 'object',
    properties: {
      lang: { type: 'string' },
      entries: { type: 'string', description: 'One term per line' },
    },
    required: ['lang', 'entries'],
  },
};
