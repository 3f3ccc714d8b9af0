/** Authentication and authorization: decorators, providers, and the plugin that applies them. */
export { securityPlugin } from './security-plugin';
// The declarations (decorators, contracts, app-wide providers) are the core's, shared with API documents.
export {
  appSecurity,
  checkProvider,
  GLOBAL_AUTHENTICATION,
  GLOBAL_AUTHORIZATION,
  Authenticate,
  Authorize,
  RolesAllowed,
  PermitAll,
  DenyAll,
  routeSecurity,
  type RouteSecurity,
  type AccessRule,
  type RestAuthenticationProvider,
  type AuthorizationProvider,
} from '../../plugin';
export { BearerAuthenticationProvider, type TokenVerifier, type BearerOptions } from './bearer-provider';
export {
  BasicAuthenticationProvider,
  type BasicCredentials,
  type PasswordVerifier,
  type BasicAccount,
  type BasicOptions,
} from './basic-provider';
export { hashPassword, verifyPassword, secretsEqual } from './constant-time';
