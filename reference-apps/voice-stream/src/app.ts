import { openApi, RestBuilder } from 'rest.uws';
import type { ApiKeyStore } from './storage/api-key-store';
import { capabilitiesOf, type VoiceEngines } from './engines/voice-engines';
import type { SessionLimits } from './domain/session/session-limits';
import type { SessionRegistry } from './domain/registry/session-registry';
import { PageResource, PUBLIC_DIRECTORY } from './http/page-resource';
import type { SessionCapacity } from './domain/session-capacity';
import { VoiceExceptionHandler } from './http/voice-exception-handler';
import { VoiceSessionResource, type SessionResourceSettings } from './http/voice-session-resource';
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

/**
 * The voice API on rest.uws: the session request resource, the stream endpoint, `{message, code}` errors,
 * and the live-caption page at `/`.
 */
export function voiceApp(services: VoiceAppServices, settings: SessionResourceSettings, builder = new RestBuilder()): RestBuilder {
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
