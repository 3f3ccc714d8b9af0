import { BookingError } from './booking-error';
import type { InputFieldDefinition } from './catalogue';
import type { InputFieldValue } from './booking';
import type { InputFieldAnswer } from './create-booking-request';

const validators: Record<InputFieldDefinition['dataType'], { test: (value: string) => boolean; expected: string }> = {
  TEXT: { test: () => true, expected: 'text' },
  EMAIL: { test: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), expected: 'an email address' },
  PHONE: {
    test: (value) => /^\+?[0-9][0-9 ()-]{5,24}$/.test(value),
    expected: 'a phone number such as +44 20 7946 0958',
  },
  INTEGER: { test: (value) => /^-?\d{1,9}$/.test(value), expected: 'an integer' },
};

/**
 * Checks answers against the field definitions (unknown ids, duplicates, required ones, data types) and
 * returns them with the field names the response carries. `path` names the answers in messages.
 */
export function answerFields(
  definitions: InputFieldDefinition[],
  answers: InputFieldAnswer[],
  path: string,
): InputFieldValue[] {
  const byId = new Map(definitions.map((definition) => [definition.id, definition]));
  const seen = new Set<string>();
  const result: InputFieldValue[] = [];
  answers.forEach((answer, index) => {
    const definition = byId.get(answer.id);
    const at = `${path}[${index}]`;
    if (!definition) {
      const known = definitions.map((d) => d.id).join(', ') || 'none';
      throw BookingError.invalid(`${at}.id`, `unknown input field "${answer.id}" (accepted here: ${known})`);
    }
    if (seen.has(answer.id)) throw BookingError.invalid(`${at}.id`, `input field "${answer.id}" is given twice`);
    seen.add(answer.id);
    const value = answer.value.trim();
    const validator = validators[definition.dataType];
    if (!validator.test(value))
      throw BookingError.invalid(`${at}.value`, `"${answer.value}" is not ${validator.expected} (field ${answer.id})`);
    result.push({ id: definition.id, name: definition.name, value });
  });
  for (const definition of definitions) {
    if (definition.required && !seen.has(definition.id))
      throw BookingError.missing(`${path} field "${definition.id}" (${definition.name})`);
  }
  return result;
}

/** Fields a customer answers: the primary one gets the PRIMARY_CUSTOMER fields too (those win on the same id). */
export function customerFieldDefinitions(all: InputFieldDefinition[], isPrimary: boolean): InputFieldDefinition[] {
  const every = all.filter((field) => field.appliesTo === 'EVERY_CUSTOMER');
  if (!isPrimary) return every;
  const primary = all.filter((field) => field.appliesTo === 'PRIMARY_CUSTOMER');
  const primaryIds = new Set(primary.map((field) => field.id));
  return [...primary, ...every.filter((field) => !primaryIds.has(field.id))];
}
