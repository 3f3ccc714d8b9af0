/**
 * tsyringe tokens of the app's services that are interfaces (classes such as ApiKeyStore and SessionCapacity are
 * their own tokens). app.ts registers them in the app's container; the HTTP classes take them with `@inject(token)`.
 */

/** The SessionRegistry: in memory, or in PostgreSQL shared by every instance. */
export const SESSION_REGISTRY = Symbol('voice-stream:session-registry');
/** The VoiceEngines the sessions run on. */
export const VOICE_ENGINES = Symbol('voice-stream:voice-engines');
/** The engines' VoiceCapabilities, which session requests are checked against. */
export const VOICE_CAPABILITIES = Symbol('voice-stream:voice-capabilities');
/** The sessions' limits (Partial<SessionLimits>: the spec's values where not given). */
export const SESSION_LIMITS = Symbol('voice-stream:session-limits');
/** Where streaming_url points (SessionResourceSettings). */
export const SESSION_RESOURCE_SETTINGS = Symbol('voice-stream:session-resource-settings');
