import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  Authenticate,
  BodyParam,
  Consumes,
  Context,
  GET,
  HttpServerRequest,
  Inject,
  NotEmpty,
  Path,
  POST,
  Produces,
  QueryParam,
  RateLimit,
  Valid,
} from 'rest.uws';
import { inject } from 'tsyringe';
import {
  sessionConfigOf,
  type SessionRequest,
  type SessionResources,
  type VoiceCapabilities,
} from '../domain/session/session-request';
import type { VoiceEngines } from '../engines/voice-engines';
import { GlossaryStore } from '../storage/glossary-store';
import { SpokenTermsStore } from '../storage/spoken-terms-store';
import type { SessionRegistry } from '../domain/registry/session-registry';
import { SessionCapacity } from '../domain/session-capacity';
import { VoiceApiError } from '../domain/voice-api-error';
import { AuthenticatedKey, DeepLKeyAuthentication } from './deepl-authorization';
import { SessionRequestDto } from './dto/session-request.dto';
import { SESSION_REGISTRY, SESSION_RESOURCE_SETTINGS, VOICE_CAPABILITIES, VOICE_ENGINES } from './injection-tokens';
import { streamingUrl } from './streaming-url';

/** The rate limit rule of the session request (its numbers are the app's configuration: see app.ts). */
export const SESSION_REQUEST_RULE = 'session-request';

/** The answer of the session request and of a reconnection. */
export interface VoiceStreamingResponse {
  streaming_url: string;
  token: string;
  session_id: string;
}

export interface SessionResourceSettings {
  readonly publicBaseUrl: string | undefined;
  /** host:port of this server, for requests without a Host header. */
  readonly fallbackHost: () => string;
}

/** The OpenAPI schema of `VoiceStreamingResponse` (an interface: TypeScript keeps nothing of it at run time). */
const STREAMING_RESPONSE = {
  type: 'object',
  properties: {
    streaming_url: { type: 'string', description: 'The WebSocket to stream audio to, with ?token=<token>' },
    token: { type: 'string', description: 'Opens one connection; reconnect for a new one' },
    session_id: { type: 'string' },
  },
  required: ['streaming_url', 'token', 'session_id'],
};

/**
 * `POST /v3/voice/realtime` (session request) and `GET /v3/voice/realtime?token=` (reconnection). rest.uws checks the
 * API key first (DeepLKeyAuthentication: 401, 403, 503), then the request (the body's form: SessionRequestDto), and
 * counts the session requests per key (the rate limit); the methods apply the engines' capabilities and the registry.
 */
@Path('/v3/voice')
@Produces('application/json')
@Authenticate(DeepLKeyAuthentication)
@ApiTags('Voice sessions')
@ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
@ApiResponse(403, 'The API key is unknown or revoked (forbidden); on reconnection also an unknown or outdated token')
@ApiResponse(503, {
  description: 'The key or session store is unavailable (service_unavailable), or the server is full (server_busy)',
  headers: { 'Retry-After': 'Seconds to wait, when the server is full' },
})
@Inject
export class VoiceSessionResource {
  constructor(
    @inject(SESSION_REGISTRY) private readonly registry: SessionRegistry,
    private readonly capacity: SessionCapacity,
    @inject(VOICE_CAPABILITIES) private readonly capabilities: VoiceCapabilities,
    @inject(SESSION_RESOURCE_SETTINGS) private readonly settings: SessionResourceSettings,
    private readonly glossaries: GlossaryStore,
    private readonly spokenTerms: SpokenTermsStore,
    @inject(VOICE_ENGINES) private readonly engines: VoiceEngines,
  ) {}

  @POST
  @Path('/realtime')
  @Consumes('application/json')
  @ApiOperation({ summary: 'Requests a voice session: its streaming URL and first token' })
  @ApiResponse(200, { schema: STREAMING_RESPONSE })
  @ApiResponse(
    400,
    'The body is missing, not JSON, or not a valid session request (invalid_request and the field codes); ' +
      'glossary_id names no glossary of this key (glossary_not_found) or none for the targets (glossary_language_mismatch); ' +
      'spoken_terms_id names no collection of this key (spoken_terms_not_found) or none for the source language ' +
      '(spoken_terms_language_mismatch)',
  )
  @ApiResponse(429, {
    description:
      'Over the rate limit of session requests per API key (too_many_requests, with Retry-After), or this API key already ' +
      'has its maximum of open sessions (too_many_sessions)',
    headers: {
      'RateLimit-Limit': 'Session requests allowed per window',
      'RateLimit-Remaining': 'Session requests left now',
      'RateLimit-Reset': 'Seconds until the bucket is full again',
    },
  })
  @RateLimit(SESSION_REQUEST_RULE)
  async requestSession(
    @Context() key: AuthenticatedKey,
    @Context() request: HttpServerRequest,
    @Valid @BodyParam body: SessionRequestDto,
  ): Promise<VoiceStreamingResponse> {
    const resources = await this.resourcesOf(key.id, body);
    const result = sessionConfigOf(body, this.capabilities, resources);
    if ('error' in result) throw new VoiceApiError(400, result.error.code, result.error.message);
    // A full server says so before handing out a token (the upgrade checks again: streams may start meanwhile).
    this.capacity.check();
    // The resources travel with the body: the instance that runs the stream uses them as they are now.
    const created = await this.registry.create(key.id, { body: { ...body, resources }, config: result.config });
    return { streaming_url: this.url(request), token: created.token, session_id: created.sessionId };
  }

  @GET
  @Path('/realtime')
  @ApiOperation({ summary: 'Reconnects a session: a new token for the latest one' })
  @ApiResponse(200, { schema: STREAMING_RESPONSE })
  @ApiResponse(400, 'The token query parameter is missing (missing_parameter)')
  async requestReconnection(
    @Context() key: AuthenticatedKey,
    @Context() request: HttpServerRequest,
    // Optional for rest.uws, so that the constraint answers a missing token in the API's words.
    @QueryParam('token', { optional: true })
    @NotEmpty({
      message: 'The token query parameter (the latest token of the session) is required',
      context: { code: 'missing_parameter' },
    })
    token: string,
  ): Promise<VoiceStreamingResponse> {
    const rotated = await this.registry.rotate(key.id, token);
    return { streaming_url: this.url(request), token: rotated.token, session_id: rotated.sessionId };
  }

  /** What the request's ids name, for this key: an unknown id, or another key's, is refused as not found. */
  private async resourcesOf(ownerId: string, body: SessionRequest): Promise<SessionResources> {
    const [glossary, spokenTerms] = await Promise.all([
      this.glossaryOf(ownerId, body.glossary_id),
      this.spokenTermsOf(ownerId, body.spoken_terms_id),
    ]);
    return { ...(glossary && { glossary }), ...(spokenTerms && { spokenTerms }) };
  }

  private async glossaryOf(ownerId: string, id: string | null | undefined) {
    if (id === undefined || id === null) return undefined;
    const glossary = await this.glossaries.dictionaries(ownerId, id);
    if (!glossary)
      throw new VoiceApiError(
        400,
        'glossary_not_found',
        `Glossary "${id}" not found: glossary_id must name a glossary of this API key`,
      );
    return glossary;
  }

  /** The collection's term lists, each in a language the recogniser hears with its vocabulary (pronunciations). */
  private async spokenTermsOf(ownerId: string, id: string | null | undefined) {
    if (id === undefined || id === null) return undefined;
    const lists = await this.spokenTerms.termLists(ownerId, id);
    if (!lists)
      throw new VoiceApiError(
        400,
        'spoken_terms_not_found',
        `Spoken Terms collection "${id}" not found: spoken_terms_id must name a collection of this API key`,
      );
    const recognizer = this.engines.recognizer;
    return Promise.all(
      lists.map(async (list) =>
        recognizer.prepareVocabulary && recognizer.languages.includes(list.lang)
          ? { ...list, vocabulary: (await recognizer.prepareVocabulary(list.lang, list.terms)).vocabulary }
          : list,
      ),
    );
  }

  private url(request: HttpServerRequest): string {
    return streamingUrl(request, this.settings.publicBaseUrl, this.settings.fallbackHost());
  }
}
