import { openApi, rateLimit, RestBuilder, type RateLimitKey } from 'rest.uws';
import { rateLimitStoreOptions, useOperations, type AppRateLimit, type OperationsOptions } from 'app-support';
import { readAuthKey } from './http/deepl-authorization';
import { DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE } from './config';
import type { ApiKeyStore } from './storage/api-key-store';
import { capabilitiesOf, type VoiceEngines } from './engines/voice-engines';
import type { SessionLimits } from './domain/session/session-limits';
import type { SessionRegistry } from './domain/registry/session-registry';
import { PageResource, PUBLIC_DIRECTORY } from './http/page-resource';
import type { SessionCapacity } from './domain/session-capacity';
import { VoiceExceptionHandler } from './http/voice-exception-handler';
import { SESSION_REQUEST_RULE, VoiceSessionResource, type SessionResourceSettings } from './http/voice-session-resource';
import { StreamTicket, VoiceStreamEndpoint } from './http/voice-stream-endpoint';

/** Session requests are small JSON objects. */
export const MAX_BODY_BYTES = 16 * 1024;
/** Where the OpenAPI document of the session API is served (public). */
export const OPENAPI_PATH = '/openapi.json';

export interface VoiceAppServices {
  readonly engines: VoiceEngines;
  readonly keys: ApiKeyStore;
  readonly registry: SessionRegistry;
  /** The global limit on this instance's concurrent sessions. */
  readonly capacity: SessionCapacity;
  readonly limits?: Partial<SessionLimits>;
}

/** How session requests are rate limited: `limit` per `windowSeconds` (default 60) per API key. */
export type SessionRateLimit = AppRateLimit;

/** How the app is run: trust proxy and what `/ready` checks (app-support's `useOperations`), the session request's rate limit. */
export interface VoiceOperations extends OperationsOptions {
  /** Default 60 session requests per minute per API key, in memory; false: none. */
  readonly sessionRateLimit?: SessionRateLimit | false;
}

/** Whose session requests count together: the API key of `Authorization: DeepL-Auth-Key <key>`; without one, the address. */
export const byDeepLKey: RateLimitKey = (ctx) => {
  const read = readAuthKey(ctx.request.getHeader('authorization'));
  return 'key' in read ? read.key : undefined;
};

/**
 * The voice API on rest.uws: the session request resource, the stream endpoint, `{message, code}` errors,
 * and the live-caption page at `/`; request ids with the access log, `/health` and `/ready`, compression, trust
 * proxy and the session request's rate limit per API key.
 */
export function voiceApp(services: VoiceAppServices, settings: SessionResourceSettings, builder = new RestBuilder(), operations: VoiceOperations = {}): RestBuilder {
  // Request ids, trust proxy, /health and /ready, compression, the access log.
  useOperations(builder, operations);
  const limit = operations.sessionRateLimit ?? { limit: DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE };
  // Without the plugin (false), @RateLimit(SESSION_REQUEST_RULE) does nothing.
  if (limit !== false) {
    builder.use(
      rateLimit({
        key: byDeepLKey,
        rules: { [SESSION_REQUEST_RULE]: { limit: limit.limit, windowSeconds: limit.windowSeconds ?? 60 } },
        ...rateLimitStoreOptions(limit),
      }),
    );
  }
  return builder
    .register(
      new VoiceSessionResource(services.keys, services.registry, services.capacity, capabilitiesOf(services.engines), settings),
      new VoiceStreamEndpoint(services.engines, services.registry, services.limits),
      new PageResource(),
    )
    .staticFiles('/app', PUBLIC_DIRECTORY)
    // Capacity, then the token, are checked during the upgrade: a refusal answers HTTP and no socket opens.
    // A full server refuses before the token is used, so the client may retry with it.
    .addProvider(StreamTicket, async (request) => {
      const place = services.capacity.reserve();
      try {
        return new StreamTicket(await services.registry.claim(request.getQueryParam('token')), place);
      } catch (error) {
        place.cancel();
        throw error;
      }
    })
    .errorHandler(VoiceExceptionHandler)
    .bodyHandler({ maxBodySize: MAX_BODY_BYTES })
    .use(
      openApi({
        title: 'Voice stream',
        version: '1.0.0',
        path: OPENAPI_PATH,
        description:
          'Request a voice session (POST /v3/voice/realtime with `Authorization: DeepL-Auth-Key <key>`), then stream audio ' +
          'over the WebSocket at streaming_url?token=<token>; GET /v3/voice/realtime?token= reconnects. Errors: {message, code}.',
      }),
    );
}
