import type { Partner } from '../domain/partner';

/** The partner an API key belongs to: a `@Context()` argument of every API route. */
export class AuthenticatedPartner implements Partner {
  constructor(
    readonly id: string,
    readonly name: string,
  ) {}
}
