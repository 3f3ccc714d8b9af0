import type { ConstraintViolation } from './constraint-exception';

type ValidationError = import('class-validator').ValidationError;

/** Flattens class-validator's error tree into violations with dotted paths (`items[0].qty`). */
export function flattenErrors(errors: readonly ValidationError[], prefix = ''): ConstraintViolation[] {
  const out: ConstraintViolation[] = [];
  for (const e of errors) {
    const property = String(e.property);
    const path = /^\d+$/.test(property) ? `${prefix}[${property}]` : prefix === '' ? property : `${prefix}.${property}`;
    for (const [constraint, message] of Object.entries(e.constraints ?? {})) out.push({ path, constraint, message });
    if (e.children && e.children.length > 0) out.push(...flattenErrors(e.children, path));
  }
  return out;
}
