import * as httpErrors from '../../plugin';

/** What a route method's own code says about its answers (`Response.status(201)`, `throw new NotFoundException(...)`). */
export interface SourceHints {
  /** Statuses the method answers with through `Response` or `setStatusCode`, in the order they appear. */
  readonly statuses: readonly number[];
  /** Statuses whose answer carries a `Location` header (`Response.created(...)`, redirects). */
  readonly withLocation: ReadonlySet<number>;
  /** The framework's HTTP errors the method throws (or rejects with), by status. */
  readonly thrown: ReadonlyMap<number, Function>;
}

const SHORTHANDS: Readonly<Record<string, number>> = {
  ok: 200,
  created: 201,
  accepted: 202,
  noContent: 204,
  seeOther: 303,
  notModified: 304,
  temporaryRedirect: 307,
  serverError: 500,
};
const WITH_LOCATION = new Set(['created', 'seeOther', 'temporaryRedirect']);

/** The HTTP error classes of rest.uws with a fixed status, by class name (`NotFoundException` → 404). */
const ERROR_CLASSES: ReadonlyMap<string, { status: number; error: Function }> = new Map(
  Object.entries(httpErrors).flatMap(([name, value]) => {
    if (typeof value !== 'function' || !(value.prototype instanceof httpErrors.WebApplicationException)) return [];
    const status = (new (value as new () => httpErrors.WebApplicationException)() as { status?: unknown }).status;
    return typeof status === 'number' && status >= 400 && status <= 599
      ? [[name, { status, error: value }] as const]
      : [];
  }),
);

/** The method's code without its comments (a comment that names a status is no answer). */
function codeOf(method: Function): string {
  return Function.prototype.toString
    .call(method)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:\\'"`])\/\/[^\n]*/g, '$1');
}

/**
 * Reads the answers a route method's own code names: `Response.status(201)`, the `Response` shorthands
 * (`created`, `noContent`...), `setStatusCode(202)`, and `new NotFoundException(...)` and the other HTTP errors
 * of rest.uws. Only literal statuses in the method itself count: a status chosen in a helper it calls, or
 * computed, is invisible here (`@ApiResponse` says it).
 */
export function readMethodSource(method: Function): SourceHints {
  const code = codeOf(method);
  const statuses: number[] = [];
  const withLocation = new Set<number>();
  const add = (status: number) => {
    if (status >= 100 && status <= 599 && !statuses.includes(status)) statuses.push(status);
  };
  for (const m of code.matchAll(/\bResponse\s*\.\s*([A-Za-z]+)\s*\(\s*(\d{3})?/g)) {
    const name = m[1]!;
    if (name === 'status' && m[2] !== undefined) add(Number(m[2]));
    else if (SHORTHANDS[name] !== undefined) {
      add(SHORTHANDS[name]!);
      if (WITH_LOCATION.has(name)) withLocation.add(SHORTHANDS[name]!);
    }
  }
  // A builder's status replaced later in the chain (`Response.ok(x).status(202)`), or the response's own.
  for (const m of code.matchAll(/\.\s*(?:status|setStatusCode)\s*\(\s*(\d{3})\s*\)/g)) add(Number(m[1]));
  const thrown = new Map<number, Function>();
  for (const m of code.matchAll(/\bnew\s+(?:[\w$]+\s*\.\s*)?([A-Z][\w$]*Exception)\s*\(/g)) {
    const known = ERROR_CLASSES.get(m[1]!);
    if (known !== undefined && !thrown.has(known.status)) thrown.set(known.status, known.error);
  }
  return { statuses, withLocation, thrown };
}
