/** The authenticated principal of a request: what authentication providers yield. */
export class User {
  readonly name: string;
  readonly roles: readonly string[];
  /** Anything else the provider knows about the user (partner id, scopes, ...). */
  readonly attributes: Readonly<Record<string, unknown>>;

  constructor(name: string, roles: readonly string[] = [], attributes: Record<string, unknown> = {}) {
    this.name = name;
    this.roles = roles;
    this.attributes = attributes;
  }

  hasRole(role: string): boolean {
    return this.roles.includes(role);
  }
}
