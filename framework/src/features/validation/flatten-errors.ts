import type { ConstraintViolation } from '../../plugin';

type ValidationError = import('class-validator').ValidationError;

/** Flattens class-validator's error tree into violations with dotted paths (`items[0].qty`), with each constraint's context. */
export function flattenErrors(errors: readonly ValidationError[], prefix = ''): ConstraintViolation[] {
  const out: ConstraintViolation[] = [];
  for (const e of errors) {
    const property = String(e.property);
    const path = /^\d+$/.test(property) ? `${prefix}[${property}]` : prefix === '' ? property : `${prefix}.${property}`;
    for (const [constraint, message] of Object.entries(e.constraints ?? {})) {
      const context = e.contexts?.[constraint] as Record<string, unknown> | undefined;
      out.push(context === undefined ? { path, constraint, message } : { path, constraint, message, context });
    }
    if (e.children && e.children.length > 0) out.push(...flattenErrors(e.children, path));
  }
  return out;
}
