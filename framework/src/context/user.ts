/** The authenticated principal of a request: what authentication providers yield. */
export class User {
  /** The principal's name (a user name, a client id, a partner key's owner). */
  readonly name: string;
  /** Roles checked by `@RolesAllowed` and by `hasRole`. */
  readonly roles: readonly string[];
  /** Anything else the provider knows about the user (partner id, scopes, ...). */
  readonly attributes: Readonly<Record<string, unknown>>;

  constructor(name: string, roles: readonly string[] = [], attributes: Record<string, unknown> = {}) {
    this.name = name;
    this.roles = roles;
    this.attributes = attributes;
  }

  /** Whether the user has `role` (exact, case-sensitive). */
  hasRole(role: string): boolean {
    return this.roles.includes(role);
  }
}
