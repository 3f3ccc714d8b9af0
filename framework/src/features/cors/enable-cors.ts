import type { TemplatedApp } from 'uWebSockets.js';
import type { HttpMethod } from '../../metadata/types';
import { RestBuilder } from '../../builder/rest-builder';
import { RestRouter, runtimeFor } from '../../builder/rest-router';
import { installCors } from './cors-handler';
import { corsPolicy, type CorsOptions } from './cors-options';

/** Settings key of an app's CORS options. */
export const CORS_OPTIONS = Symbol('rest.uws:cors');

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * Enables CORS for every route of the app (and its 404s): `originPattern` is a regular
     * expression for the whole `Origin` (or `*`), empty `allowedHeaders`/`methods` mean all.
     *
     * ```ts
     * new RestBuilder().enableCors('https://(www\\.)?example\\.com', true, 600, ['Content-Type', 'Authorization'], ['GET', 'POST'])
     * ```
     */
    enableCors(originPattern: string | RegExp, allowCredentials?: boolean, maxAgeSeconds?: number, allowedHeaders?: Iterable<string>, methods?: Iterable<HttpMethod | string>): this;
    /** Enables CORS with options (also `exposedHeaders`). */
    enableCors(options: CorsOptions): this;
  }
}

declare module '../../builder/rest-router' {
  namespace RestRouter {
    /** Enables CORS on an app registered with `RestRouter.register` (same arguments as `RestBuilder.enableCors`). */
    function enableCors(app: TemplatedApp, originPattern: string | RegExp, allowCredentials?: boolean, maxAgeSeconds?: number, allowedHeaders?: Iterable<string>, methods?: Iterable<HttpMethod | string>): void;
    /** Enables CORS on an app with options. */
    function enableCors(app: TemplatedApp, options: CorsOptions): void;
  }
}

function toOptions(args: unknown[]): CorsOptions {
  const [first, allowCredentials, maxAgeSeconds, allowedHeaders, methods] = args;
  if (first !== null && typeof first === 'object' && !(first instanceof RegExp)) return first as CorsOptions;
  return {
    origin: first as string | RegExp,
    allowCredentials: allowCredentials as boolean | undefined,
    maxAgeSeconds: maxAgeSeconds as number | undefined,
    allowedHeaders: allowedHeaders as Iterable<string> | undefined,
    methods: methods as Iterable<string> | undefined,
  };
}

RestBuilder.prototype.enableCors = function (this: RestBuilder, ...args: unknown[]) {
  const policy = corsPolicy(toOptions(args));
  const first = !this.settings.extensions.has(CORS_OPTIONS);
  this.settings.extensions.set(CORS_OPTIONS, policy);
  // Installed once at build; a later enableCors call replaces the policy.
  if (first) this.configure((_app, runtime) => installCors(runtime, this.settings.extensions.get(CORS_OPTIONS) as ReturnType<typeof corsPolicy>));
  return this;
} as RestBuilder['enableCors'];

(RestRouter as unknown as { enableCors: (app: TemplatedApp, ...args: unknown[]) => void }).enableCors = (app: TemplatedApp, ...args: unknown[]) => {
  if (app === null || typeof app !== 'object' || typeof (app as TemplatedApp).any !== 'function') {
    throw new TypeError('rest.uws: RestRouter.enableCors takes the uWebSockets.js app first');
  }
  installCors(runtimeFor(app), corsPolicy(toOptions(args)));
};
