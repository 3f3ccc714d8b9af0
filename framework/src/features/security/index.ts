/** Authentication and authorization: decorators, providers, and the plugin that applies them. */
export { securityPlugin } from './security-plugin';
export { appSecurity, checkProvider, GLOBAL_AUTHENTICATION, GLOBAL_AUTHORIZATION } from './app-security';
export type { RestAuthenticationProvider, AuthorizationProvider } from './contracts';
export {
  Authenticate,
  Authorize,
  RolesAllowed,
  PermitAll,
  DenyAll,
  routeSecurity,
  type RouteSecurity,
  type AccessRule,
} from './decorators';
export { BearerAuthenticationProvider, type TokenVerifier, type BearerOptions } from './bearer-provider';
export {
  BasicAuthenticationProvider,
  type BasicCredentials,
  type PasswordVerifier,
  type BasicAccount,
  type BasicOptions,
} from './basic-provider';
export { hashPassword, verifyPassword, secretsEqual } from './constant-time';
