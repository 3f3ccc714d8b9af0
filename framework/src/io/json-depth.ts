import { ArgumentException } from '../errors/http-errors';
import { errors } from '../errors/factories';

/**
 * How deep a JSON body may nest objects and arrays. JSON.parse itself takes any depth, but what a body goes
 * through afterwards walks it recursively (class-transformer and the compiled transform, class-validator's
 * nested validation, violation messages that print a value, JSON.stringify when a route sends it back, an
 * app's own code), and a few thousand levels overflow the stack: a 500 for what is bad input. Real payloads
 * nest a few levels; .NET's System.Text.Json allows 64, serde_json 128, Jackson 1,000.
 */
export const MAX_JSON_DEPTH = 256;

/** The answer to a body nested deeper than MAX_JSON_DEPTH (the same wherever the depth is found). */
export function jsonTooDeep(): ArgumentException {
  return errors.RU_ERR_JSON_TOO_DEEP(`JSON body nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/**
 * For a walk that counts levels itself down to `level` (the root object is level 1) and hands `value` to code
 * that does not: throws jsonTooDeep() when `value` nests past MAX_JSON_DEPTH from there.
 */
export function assertJsonDepthFrom(value: unknown, level: number): void {
  if (nestsDeeper(value, level)) throw jsonTooDeep();
}

/**
 * Whether JSON text nests deeper than MAX_JSON_DEPTH, judged on its parsed value. Each level takes an opening
 * bracket, so text with MAX_JSON_DEPTH brackets or fewer (counted with indexOf, strings included) is never
 * walked, which spares nearly every real body the walk; the walk recurses at most MAX_JSON_DEPTH + 1 levels.
 */
export function tooDeep(text: string, parsed: unknown): boolean {
  return text.length > 2 * MAX_JSON_DEPTH && !fewBrackets(text) && nestsDeeper(parsed, 1);
}

function fewBrackets(text: string): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++count > MAX_JSON_DEPTH) return false;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++count > MAX_JSON_DEPTH) return false;
  return true;
}

function nestsDeeper(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth > MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeper(value[i], depth + 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeper((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}
