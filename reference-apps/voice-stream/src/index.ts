// Public surface of the voice stream app: the server, the transport-independent session, and the engines.
export { startVoiceServer, type VoiceServer, type VoiceServerOptions } from './server/voice-server';
export { voiceApp } from './server/voice-app';
export { SessionRegistry } from './server/session-registry';
export { VoiceSession, type SessionOutput, type SessionOutcome, type VoiceSessionOptions } from './session/voice-session';
export { validateSessionRequest, type VoiceCapabilities, type SessionRequestError } from './session/session-request';
export type { SessionConfig } from './session/session-config';
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from './session/session-limits';
export { MessageCodec, type MessageFormat } from './protocol/message-codec';
export type { ServerMessage, ClientMessage } from './protocol/messages';
export { Reasons } from './protocol/reason-codes';
export { createOfflineEngines, capabilitiesOf, type VoiceEngines } from './engines/voice-engines';
export type { SpeechRecognizer, RecognitionStream, RecognitionListener, RecognizedSegment } from './engines/speech-recognizer';
export type { Translator, Formality } from './engines/translator';
export type { SpeechSynthesizer, SynthesizedSpeech, VoiceGender } from './engines/speech-synthesizer';
export type { AudioDecoder, AudioDecoderFactory } from './engines/audio-decoder';
export type { AudioEncoder, AudioEncoderFactory } from './engines/audio-encoder';
export { ApiKeyStore } from './auth/api-key-store';
