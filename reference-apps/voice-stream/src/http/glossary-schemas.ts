/** The OpenAPI schemas of the glossary answers (plain objects: TypeScript keeps nothing of interfaces at run time). */

const DICTIONARY_INFO = {
  type: 'object',
  properties: {
    source_lang: { type: 'string', description: 'Lower-case language code, e.g. en' },
    target_lang: { type: 'string', description: 'Lower-case language code, e.g. es' },
    entry_count: { type: 'integer' },
  },
  required: ['source_lang', 'target_lang', 'entry_count'],
};

const GLOSSARY = {
  type: 'object',
  properties: {
    glossary_id: { type: 'string', description: 'A UUID' },
    name: { type: 'string' },
    dictionaries: { type: 'array', items: DICTIONARY_INFO },
    creation_time: { type: 'string', description: 'ISO 8601, e.g. 2025-08-03T14:16:18.329Z' },
  },
  required: ['glossary_id', 'name', 'dictionaries', 'creation_time'],
};

export const GLOSSARY_SCHEMAS = {
  glossary: GLOSSARY,
  list: {
    type: 'object',
    properties: { glossaries: { type: 'array', items: GLOSSARY } },
    required: ['glossaries'],
  },
  entries: {
    type: 'object',
    properties: {
      dictionaries: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            source_lang: { type: 'string' },
            target_lang: { type: 'string' },
            entries: { type: 'string', description: 'One entry per line, source and target separated by a tab' },
            entries_format: { type: 'string', enum: ['tsv'] },
          },
          required: ['source_lang', 'target_lang', 'entries', 'entries_format'],
        },
      },
    },
    required: ['dictionaries'],
  },
};
