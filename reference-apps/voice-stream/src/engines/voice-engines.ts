import type { VoiceCapabilities } from '../domain/session/session-request';
import { ApertiumTranslator } from './apertium/apertium-translator';
import type { AudioDecoderFactory } from './audio-decoder';
import type { AudioEncoderFactory } from './audio-encoder';
import { FfmpegAudioDecoderFactory } from './ffmpeg/ffmpeg-audio-decoder';
import { FfmpegAudioEncoderFactory } from './ffmpeg/ffmpeg-audio-encoder';
import { PocketSphinxRecognizer, type PocketSphinxRecognizerOptions } from './pocketsphinx/pocketsphinx-recognizer';
import { OfflineSpeechSynthesizer } from './speech/offline-speech-synthesizer';
import type { SpeechRecognizer } from './speech-recognizer';
import type { SpeechSynthesizer } from './speech-synthesizer';
import type { Translator } from './translator';

/**
 * Everything a session needs to hear, translate and speak. Swap any member for a stronger engine: each is
 * an interface, and sessions only talk to these.
 */
export interface VoiceEngines {
  readonly decoder: AudioDecoderFactory;
  readonly recognizer: SpeechRecognizer;
  readonly translator: Translator;
  readonly synthesizer: SpeechSynthesizer;
  readonly encoder: AudioEncoderFactory;
  /** Stops long-running helpers (recogniser workers, translator pipelines). */
  close(): Promise<void>;
}

export interface OfflineEngineOptions {
  readonly recognizer?: PocketSphinxRecognizerOptions;
}

/** The offline engines of this machine: ffmpeg, PocketSphinx, Apertium, espeak-ng/flite. */
export function createOfflineEngines(options: OfflineEngineOptions = {}): VoiceEngines {
  const recognizer = new PocketSphinxRecognizer(options.recognizer);
  const translator = new ApertiumTranslator();
  return {
    decoder: new FfmpegAudioDecoderFactory(),
    recognizer,
    translator,
    synthesizer: new OfflineSpeechSynthesizer(),
    encoder: new FfmpegAudioEncoderFactory(),
    async close() {
      await Promise.all([recognizer.close(), translator.close()]);
    },
  };
}

/** What the engines can do, in the terms of the session request. */
export function capabilitiesOf(engines: VoiceEngines): VoiceCapabilities {
  return {
    sourceLanguages: engines.recognizer.languages,
    targetsFor: (source) => engines.translator.targetsFor(source),
    mediaLanguages: engines.synthesizer.languages,
  };
}
