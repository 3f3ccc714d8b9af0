import { Consumes } from '../decorators/routing';
import { converterFor } from './value-conversion';
import { jsonTooDeep, tooDeep } from './json-depth';
import type { ValueReader } from '../context/contracts';
import { parseQueryString } from '../http/query-string';
import { isPlainJsonType, plainToClassShallow } from './plain-to-instance';
import { errors } from '../errors/factories';

/** application/json: parses the body and gives it the declared class's prototype. */
@Consumes('application/json')
export class JsonValueReader implements ValueReader<unknown> {
  read(value: string, type: Function | undefined): unknown {
    const parsed = parseJsonBody(value, type);
    return keepsParsedJson(type) ? parsed : plainToClassShallow(type!, parsed);
  }
}

/**
 * The JSON reader's parse and shape check without the class prototype: for routes whose validation
 * builds the instance itself (it strips prototype keys while building, so no shallow copy is needed first).
 */
export function parseJsonBody(value: string, type: Function | undefined, depthBoundedLater = false): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw errors.RU_ERR_MALFORMED_JSON(`Malformed JSON body: ${(err as Error).message}`);
  }
  // An object that validation builds from JSON has its depth checked by that build, which walks it whole anyway;
  // anything else is refused here, the depth first (a deep array is refused for its depth, wherever it goes).
  const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  if ((!depthBoundedLater || !object) && tooDeep(value, parsed)) throw jsonTooDeep();
  if (keepsParsedJson(type)) return parsed;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.RU_ERR_BODY_TYPE(
      `Expected a JSON object for ${type!.name}, got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed}`,
    );
  }
  return parsed;
}

/** Types the JSON reader gives JSON.parse's output as it is (no class prototype to give). */
export function keepsParsedJson(type: Function | undefined): boolean {
  return isPlainJsonType(type) || type === Date;
}

/** text/plain: the body as a string, or converted to the declared primitive type. */
@Consumes('text/plain')
export class TextValueReader implements ValueReader<unknown> {
  read(value: string, type: Function | undefined): unknown {
    const convert = converterFor(type);
    return convert ? convert(value, 'the request body') : value;
  }
}

/** application/x-www-form-urlencoded: the fields as an object (repeated names become arrays). */
@Consumes('application/x-www-form-urlencoded')
export class FormValueReader implements ValueReader<Record<string, string | string[]>> {
  read(value: string, type: Function | undefined): Record<string, string | string[]> {
    const fields: Record<string, string | string[]> = Object.create(null);
    for (const [k, values] of parseQueryString(value).decoded) fields[k] = values.length === 1 ? values[0]! : values;
    return (isPlainJsonType(type) ? { ...fields } : plainToClassShallow(type!, fields)) as Record<
      string,
      string | string[]
    >;
  }
}

/**
 * Used when nothing more specific is registered: the value conversion rules (primitives, Date, enums,
 * single-string constructor, fromString, valueOf), then JSON.
 */
export class GenericValueReader implements ValueReader<unknown> {
  read(value: string, type: Function | undefined): unknown {
    const convert = converterFor(type);
    if (convert) return convert(value, 'the value');
    return new JsonValueReader().read(value, type);
  }
}
