import { GET, Path, SetMetadata, type RestPlugin } from '../../src/index';

const SUNSET = Symbol('deprecation:sunset');

/** Marks a route, or every route of a class, as deprecated until `sunset` (a date). */
export const Deprecated = (sunset: string) => SetMetadata(SUNSET, new Date(sunset).toUTCString());

export interface DeprecationOptions {
  /** Where the call counts are served (default `/deprecations`). */
  path?: string;
  /** A page that explains the deprecations, sent as a `Link` header. */
  link?: string;
}

/**
 * Deprecated routes answer with `Deprecation` and `Sunset` headers (RFC 9745, RFC 8594); their calls are
 * counted and served as JSON. Routes without `@Deprecated` get no hook and pay nothing.
 */
export function deprecation(options: DeprecationOptions = {}): RestPlugin {
  const calls = new Map<string, number>();

  @Path(options.path ?? '/deprecations')
  class DeprecationReport {
    @GET
    counts() {
      return Object.fromEntries(calls);
    }
  }

  return {
    name: 'deprecation',
    setup(app) {
      app.route((route) => {
        const sunset = route.definition.extensions.get(SUNSET) as string | undefined;
        if (sunset === undefined) return undefined;
        const key = `${route.definition.method} ${route.definition.path}`;
        return {
          onRequest(ctx) {
            ctx.response.putHeader('Deprecation', 'true').putHeader('Sunset', sunset);
            if (options.link !== undefined) ctx.response.appendHeader('Link', `<${options.link}>; rel="deprecation"`);
          },
          onResponse() {
            calls.set(key, (calls.get(key) ?? 0) + 1);
          },
        };
      });
      app.register(DeprecationReport);
    },
  };
}
