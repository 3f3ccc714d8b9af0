// rest.uws first: it loads reflect-metadata, which tsyringe needs before it loads.
import { asyncApi, openApi, openTelemetry, rateLimit, RestBuilder, TsyringeInjectionProvider } from 'rest.uws';
import { container as rootContainer } from 'tsyringe';
import { rateLimitStoreOptions, useOperations, type AppRateLimit, type OperationsOptions } from 'app-support';
import { telemetryStarted } from 'app-support/telemetry';
import { DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE } from './config';
import { ApiKeyStore } from './storage/api-key-store';
import { GlossaryStore } from './storage/glossary-store';
import { SpokenTermsStore } from './storage/spoken-terms-store';
import { capabilitiesOf, type VoiceEngines } from './engines/voice-engines';
import type { SessionLimits } from './domain/session/session-limits';
import type { SessionRegistry } from './domain/registry/session-registry';
import { SessionCapacity } from './domain/session-capacity';
import { JobService } from './domain/jobs/job-service';
import { JobResource } from './http/job-resource';
import { byDeepLKey } from './http/deepl-authorization';
import {
  SESSION_LIMITS,
  SESSION_REGISTRY,
  SESSION_RESOURCE_SETTINGS,
  VOICE_CAPABILITIES,
  VOICE_ENGINES,
} from './http/injection-tokens';
import { GlossaryResource } from './http/glossary-resource';
import { PageResource, PUBLIC_DIRECTORY } from './http/page-resource';
import { SpokenTermsResource } from './http/spoken-terms-resource';
import { VoiceExceptionHandler } from './http/voice-exception-handler';
import {
  SESSION_REQUEST_RULE,
  VoiceSessionResource,
  type SessionResourceSettings,
} from './http/voice-session-resource';
import { StreamTicket, VoiceStreamEndpoint } from './http/voice-stream-endpoint';

/** Session requests are small JSON objects; a glossary's entries may take up to this (DeepL allows more). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Where the OpenAPI document of the session API is served (public). */
export const OPENAPI_PATH = '/openapi.json';
/** Where the AsyncAPI document of the stream is served (public). */
export const ASYNCAPI_PATH = '/asyncapi.json';

export interface VoiceAppServices {
  readonly engines: VoiceEngines;
  readonly keys: ApiKeyStore;
  readonly glossaries: GlossaryStore;
  readonly spokenTerms: SpokenTermsStore;
  readonly registry: SessionRegistry;
  /** The global limit on this instance's concurrent sessions. */
  readonly capacity: SessionCapacity;
  readonly limits?: Partial<SessionLimits>;
  /** The audio-file jobs (`/v1/jobs/voice/translate`; their files are served from its directory); none without it. */
  readonly jobs?: JobService;
}

/** How session requests are rate limited: `limit` per `windowSeconds` (default 60) per API key. */
export type SessionRateLimit = AppRateLimit;

/** How the app is run: trust proxy and what `/ready` checks (app-support's `useOperations`), the session request's rate limit. */
export interface VoiceOperations extends OperationsOptions {
  /** Default 60 session requests per minute per API key, in memory; false: none. */
  readonly sessionRateLimit?: SessionRateLimit | false;
}

/**
 * The voice API on rest.uws: the session request resource (behind the API key, DeepLKeyAuthentication; its body a
 * @Valid SessionRequestDto checked by class-validator), the glossaries and spoken terms of each key, the stream endpoint, `{message, code}` errors, and the
 * live-caption page at `/`; request ids with the access log, `/health` and `/ready`, compression, trust proxy and the
 * session request's rate limit per API key. The HTTP classes are made by tsyringe from the services given here.
 */
export function voiceApp(
  services: VoiceAppServices,
  settings: SessionResourceSettings,
  builder = new RestBuilder(),
  operations: VoiceOperations = {},
): RestBuilder {
  // One container per app: two servers in one process (tests, scale-out) keep their own services.
  const container = rootContainer.createChildContainer();
  container.registerInstance(ApiKeyStore, services.keys);
  container.registerInstance(GlossaryStore, services.glossaries);
  container.registerInstance(SpokenTermsStore, services.spokenTerms);
  container.registerInstance(SessionCapacity, services.capacity);
  if (services.jobs) container.registerInstance(JobService, services.jobs);
  container.register(SESSION_REGISTRY, { useValue: services.registry });
  container.register(VOICE_ENGINES, { useValue: services.engines });
  container.register(VOICE_CAPABILITIES, { useValue: capabilitiesOf(services.engines) });
  container.register(SESSION_LIMITS, { useValue: services.limits ?? {} });
  container.register(SESSION_RESOURCE_SETTINGS, { useValue: settings });

  // Request ids, trust proxy, /health and /ready, compression, the access log.
  useOperations(builder, operations);
  // A server span per request and upgrade, the sessions' own spans (session-trace.ts), when telemetry is on.
  if (telemetryStarted()) builder.use(openTelemetry());
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
  // The job results are served from the jobs' folder (JobResultWriter): the root of this app's file routes.
  if (services.jobs) builder.staticFiles(services.jobs.settings.directory);
  const jobResources = services.jobs ? [JobResource] : [];
  return (
    builder
      .injectWith(new TsyringeInjectionProvider(container))
      // Unknown fields of a session request are violations (unknown_parameter), not silently dropped.
      .validateWith({ validator: { whitelist: true, forbidNonWhitelisted: true } })
      .register(
        VoiceSessionResource,
        GlossaryResource,
        SpokenTermsResource,
        ...jobResources,
        VoiceStreamEndpoint,
        PageResource,
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
            'over the WebSocket at streaming_url?token=<token>; GET /v3/voice/realtime?token= reconnects. Glossaries ' +
            '(/v3/glossaries) apply to the translations of a session that names one, spoken terms (/v3/spoken-terms) to ' +
            'its recognition. Audio files are translated by jobs (/v1/jobs/voice/translate: create, upload, poll, download). ' +
            'Errors: {message, code}.',
        }),
      )
      .use(
        asyncApi({
          title: 'Voice stream',
          version: '1.0.0',
          path: ASYNCAPI_PATH,
          description:
            'The stream of a voice session: connect to streaming_url?token=<token> (from POST /v3/voice/realtime), send ' +
            'audio, receive transcripts, translations and translated speech. The messages are DeepL Voice API messages.',
        }),
      )
  );
}
