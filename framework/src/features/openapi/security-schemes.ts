import { appSecurity, routeSecurity, type Provided, type RouteDefinition, type SettingsView } from '../../plugin';
import type { JsonSchema } from './constraint-keywords';

/**
 * How an authentication provider appears in the OpenAPI document. A provider describes itself with a
 * `securityScheme` property (or method) returning this, as the Bearer and Basic providers do.
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
  /** Whether the route can answer 401. */
  secured: boolean;
  /** Whether the route can answer 403: an authorization provider, @RolesAllowed or @DenyAll applies. */
  mayForbid: boolean;
}

function describe(provider: Provided<unknown>, instanceOf?: (p: Provided<unknown>) => unknown): OpenApiSecurityScheme {
  const ctor = (typeof provider === 'function' ? provider : (provider as object).constructor) as Function;
  // A scheme declared as an instance field is only visible on an instance: ask the app's component factory.
  let holder: unknown = typeof provider === 'object' && provider !== null ? provider : ctor.prototype;
  if (
    typeof provider === 'function' &&
    (ctor.prototype as { securityScheme?: unknown })?.securityScheme === undefined &&
    instanceOf !== undefined
  ) {
    try {
      holder = instanceOf(provider);
    } catch {
      holder = ctor.prototype;
    }
  }
  const own = (holder as { securityScheme?: unknown } | undefined)?.securityScheme;
  const declared = typeof own === 'function' ? (own as () => unknown).call(holder) : own;
  if (declared !== undefined && declared !== null && typeof declared === 'object' && 'scheme' in declared) {
    const d = declared as OpenApiSecurityScheme;
    return { name: d.name ?? schemeName(ctor), scheme: d.scheme };
  }
  // Unknown credentials: say so rather than guess a header.
  return {
    name: schemeName(ctor),
    scheme: { type: 'http', scheme: 'custom', description: `Credentials read by ${ctor.name}` },
  };
}

function schemeName(ctor: Function): string {
  const base = ctor.name.replace(/(Authentication)?Provider$/, '') || 'auth';
  return base.charAt(0).toLowerCase() + base.slice(1) + 'Auth';
}

/** The security of one route: its own `@Authenticate`, else the app's; roles from `@RolesAllowed`. */
export function routeSecurityDoc(
  definition: RouteDefinition,
  settings: SettingsView,
  instanceOf?: (p: Provided<unknown>) => unknown,
): RouteSecurityDoc {
  const declared = routeSecurity(definition);
  const access = declared.access;
  if (access?.kind === 'permitAll') return { requirement: [], schemes: {}, secured: false, mayForbid: false };
  const app = appSecurity(settings);
  const mayForbid = access !== undefined || (declared.authorize ?? app.authorize) !== undefined;
  const provider = declared.authenticate ?? app.authenticate;
  if (provider === undefined) return { requirement: undefined, schemes: {}, secured: access !== undefined, mayForbid };
  const { name, scheme } = describe(provider, instanceOf);
  const roles = access?.kind === 'roles' ? [...access.roles] : [];
  return { requirement: [{ [name!]: roles }], schemes: { [name!]: scheme }, secured: true, mayForbid };
}
