import { ApiOperation, ApiResponse, ApiTags, BodyParam, Consumes, Context, GET, HeaderParam, HttpServerRequest, Path, POST, Produces, QueryParam, RateLimit, RequestLogger } from 'rest.uws';
import type { ApiKeyOwner, ApiKeyStore } from '../storage/api-key-store';
import { readAuthKey } from './deepl-authorization';
import { validateSessionRequest, type VoiceCapabilities } from '../domain/session/session-request';
import type { SessionRegistry } from '../domain/registry/session-registry';
import type { SessionCapacity } from '../domain/session-capacity';
import { streamingUrl } from './streaming-url';
import { VoiceApiError } from '../domain/voice-api-error';

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

/** `POST /v3/voice/realtime` (session request) and `GET /v3/voice/realtime?token=` (reconnection). */
@Path('/v3/voice')
@Produces('application/json')
@ApiTags('Voice sessions')
@ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
@ApiResponse(403, 'The API key is unknown or revoked (forbidden); on reconnection also an unknown or outdated token')
@ApiResponse(503, { description: 'The key or session store is unavailable (service_unavailable), or the server is full (server_busy)', headers: { 'Retry-After': 'Seconds to wait, when the server is full' } })
export class VoiceSessionResource {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly registry: SessionRegistry,
    private readonly capacity: SessionCapacity,
    private readonly capabilities: VoiceCapabilities,
    private readonly settings: SessionResourceSettings,
  ) {}

  @POST
  @Path('/realtime')
  @Consumes('application/json')
  @ApiOperation({ summary: 'Requests a voice session: its streaming URL and first token' })
  @ApiResponse(200, { schema: STREAMING_RESPONSE })
  @ApiResponse(400, 'The body is missing, not JSON, or not a valid session request (invalid_request and the field codes)')
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
    @HeaderParam('authorization', { optional: true }) authorization: string | undefined,
    @Context() request: HttpServerRequest,
    @BodyParam({ optional: true }) body: object | undefined,
    @Context() log: RequestLogger,
  ): Promise<VoiceStreamingResponse> {
    // The key is checked before the body, so a client without one learns that first (401/403).
    const owner = await this.authenticate(authorization, log);
    if (body === undefined) throw new VoiceApiError(400, 'invalid_request', 'The request body must be a JSON object with at least source_media_content_type');
    const result = validateSessionRequest(body, this.capabilities);
    if ('error' in result) throw new VoiceApiError(400, result.error.code, result.error.message);
    // A full server says so before handing out a token (the upgrade checks again: streams may start meanwhile).
    this.capacity.check();
    const created = await this.registry.create(owner.id, { body, config: result.config });
    return { streaming_url: this.url(request), token: created.token, session_id: created.sessionId };
  }

  @GET
  @Path('/realtime')
  @ApiOperation({ summary: 'Reconnects a session: a new token for the latest one' })
  @ApiResponse(200, { schema: STREAMING_RESPONSE })
  @ApiResponse(400, 'The token query parameter is missing (missing_parameter)')
  async requestReconnection(
    @HeaderParam('authorization', { optional: true }) authorization: string | undefined,
    @Context() request: HttpServerRequest,
    @QueryParam('token', { optional: true }) token: string | undefined,
    @Context() log: RequestLogger,
  ): Promise<VoiceStreamingResponse> {
    const owner = await this.authenticate(authorization, log);
    if (!token) throw new VoiceApiError(400, 'missing_parameter', 'The token query parameter (the latest token of the session) is required');
    const rotated = await this.registry.rotate(owner.id, token);
    return { streaming_url: this.url(request), token: rotated.token, session_id: rotated.sessionId };
  }

  private async authenticate(authorization: string | undefined, log: RequestLogger): Promise<ApiKeyOwner> {
    const read = readAuthKey(authorization);
    if ('problem' in read) throw new VoiceApiError(401, 'unauthorized', read.problem);
    let owner: ApiKeyOwner | undefined;
    try {
      owner = await this.keys.verify(read.key);
    } catch (error) {
      // The request's logger: the line carries its id (reqId), as the answer's X-Request-Id does.
      log.error({ err: error }, 'key store error: answered 503');
      throw new VoiceApiError(503, 'service_unavailable', 'The key store (database) is unavailable; retry shortly');
    }
    if (!owner) throw new VoiceApiError(403, 'forbidden', 'The API key is unknown or revoked');
    return owner;
  }

  private url(request: HttpServerRequest): string {
    return streamingUrl(request, this.settings.publicBaseUrl, this.settings.fallbackHost());
  }
}
