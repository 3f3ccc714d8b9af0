// Public surface of the voice stream app: the server, the transport-independent session, and the engines.
export { startVoiceServer, type VoiceServer, type VoiceServerOptions } from './server';
export { voiceApp } from './app';
export type {
  SessionRegistry,
  RegistryOptions,
  ClaimedSession,
  AttachedStream,
} from './domain/registry/session-registry';
export { MemorySessionRegistry } from './storage/memory-session-registry';
export { PostgresSessionRegistry, type PostgresRegistryOptions } from './storage/postgres-session-registry';
export { openVoiceDatabase } from './storage/open-voice-database';
export {
  VoiceSession,
  type SessionOutput,
  type SessionOutcome,
  type VoiceSessionOptions,
} from './domain/session/voice-session';
export {
  sessionConfigOf,
  type SessionRequest,
  type VoiceCapabilities,
  type SessionRequestError,
} from './domain/session/session-request';
export { SessionRequestDto } from './http/dto/session-request.dto';
export type { SessionConfig } from './domain/session/session-config';
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from './domain/session/session-limits';
export { MessageCodec, type MessageFormat } from './domain/protocol/message-codec';
export type { ServerMessage, ClientMessage } from './domain/protocol/messages';
export { Reasons } from './domain/protocol/reason-codes';
export { createOfflineEngines, capabilitiesOf, type VoiceEngines } from './engines/voice-engines';
export type {
  SpeechRecognizer,
  RecognitionStream,
  RecognitionListener,
  RecognizedSegment,
} from './engines/speech-recognizer';
export type { Translator, Formality } from './engines/translator';
export type { SpeechSynthesizer, SynthesizedSpeech, VoiceGender } from './engines/speech-synthesizer';
export type { AudioDecoder, AudioDecoderFactory } from './engines/audio-decoder';
export type { AudioEncoder, AudioEncoderFactory } from './engines/audio-encoder';
export { ApiKeyStore } from './storage/api-key-store';
