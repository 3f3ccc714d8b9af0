import type { Provided } from '../io/registry';
import type { RouteDefinition } from '../metadata/route-definition';
import type { SettingsView } from '../runtime/settings';
import { appSecurity } from '../security/app-security';
import { BasicAuthenticationProvider } from '../security/basic-provider';
import { BearerAuthenticationProvider } from '../security/bearer-provider';
import { routeSecurity } from '../security/decorators';
import type { JsonSchema } from './constraint-keywords';

/**
 * How an authentication provider appears in the OpenAPI document. A custom provider can describe
 * itself with a `securityScheme` property (or method) returning this; Bearer and Basic providers
 * are known.
 *
 * ```ts
 * class ApiKeyProvider implements RestAuthenticationProvider<string> {
 *   securityScheme = { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key' } };
 *   ...
 * }
 * ```
 */
export interface OpenApiSecurityScheme {
  /** Key in `components.securitySchemes` (default: from the provider class name). */
  name?: string;
  /** The OpenAPI Security Scheme Object. */
  scheme: JsonSchema;
}

/** A route's security requirement and the schemes it uses. */
export interface RouteSecurityDoc {
  /** undefined: no authentication; []: explicitly public (`@PermitAll`); else one requirement. */
  requirement: Array<Record<string, string[]>> | undefined;
  schemes: Record<string, JsonSchema>;
  /** Whether the route can answer 401 and 403. */
  secured: boolean;
}

function describe(provider: Provided<unknown>): OpenApiSecurityScheme {
  const ctor = (typeof provider === 'function' ? provider : (provider as object).constructor) as Function;
  const own = typeof provider === 'object' && provider !== null ? (provider as { securityScheme?: unknown }).securityScheme : (ctor.prototype as { securityScheme?: unknown })?.securityScheme;
  const declared = typeof own === 'function' ? (own as () => unknown).call(provider) : own;
  if (declared !== undefined && declared !== null && typeof declared === 'object' && 'scheme' in declared) {
    const d = declared as OpenApiSecurityScheme;
    return { name: d.name ?? schemeName(ctor), scheme: d.scheme };
  }
  if (ctor === BearerAuthenticationProvider || ctor.prototype instanceof BearerAuthenticationProvider) return { name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } };
  if (ctor === BasicAuthenticationProvider || ctor.prototype instanceof BasicAuthenticationProvider) return { name: 'basicAuth', scheme: { type: 'http', scheme: 'basic' } };
  // Unknown credentials: say so rather than guess a header.
  return { name: schemeName(ctor), scheme: { type: 'http', scheme: 'custom', description: `Credentials read by ${ctor.name}` } };
}

function schemeName(ctor: Function): string {
  const base = ctor.name.replace(/(Authentication)?Provider$/, '') || 'auth';
  return base.charAt(0).toLowerCase() + base.slice(1) + 'Auth';
}

/** The security of one route: its own `@Authenticate`, else the app's; roles from `@RolesAllowed`. */
export function routeSecurityDoc(definition: RouteDefinition, settings: SettingsView): RouteSecurityDoc {
  const declared = routeSecurity(definition);
  const access = declared.access;
  if (access?.kind === 'permitAll') return { requirement: [], schemes: {}, secured: false };
  const provider = declared.authenticate ?? appSecurity(settings).authenticate;
  if (provider === undefined) return { requirement: undefined, schemes: {}, secured: access !== undefined };
  const { name, scheme } = describe(provider);
  const roles = access?.kind === 'roles' ? [...access.roles] : [];
  return { requirement: [{ [name!]: roles }], schemes: { [name!]: scheme }, secured: true };
}
