export type VoiceGender = 'male' | 'female';

/** Synthesized speech: PCM s16le mono. A synthesizer keeps one rate per language and voice. */
export interface SynthesizedSpeech {
  readonly pcm: Buffer;
  readonly sampleRate: number;
}

export interface SpeechSynthesizer {
  /** BCP 47 languages it can speak (canonical case). */
  readonly languages: readonly string[];
  synthesize(text: string, language: string, voice: VoiceGender | undefined): Promise<SynthesizedSpeech>;
}
