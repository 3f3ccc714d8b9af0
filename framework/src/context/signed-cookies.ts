/**
 * Checks signed cookies, for `@CookieParam(name, { signed: true })`: the value when the signature checks with
 * one of the app's keys, undefined otherwise. `use(cookies({ keys }))` provides it (`@Context()` takes it too).
 */
export abstract class SignedCookieVerifier {
  /** The value of cookie `name` whose raw (signed) value is `signed`, or undefined when its signature does not check. */
  abstract verify(name: string, signed: string): string | undefined;
}
