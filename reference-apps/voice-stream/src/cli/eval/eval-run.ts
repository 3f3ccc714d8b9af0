import { createOfflineEngines, type OfflineEngineOptions } from '../../engines/voice-engines';
import { encodePassage, NOISE_FLOOR_DB, passagePcm } from './eval-audio';
import { conditionLabel, type EvalCondition } from './eval-conditions';
import { recognizeAudio } from './eval-recognition';
import { wordErrors } from './word-error-rate';

/**
 * Sentences per session by default: a caller says a few sentences per stream, with pauses between them. One
 * sentence per session (`--per-session 1`) is a short command in its own session: the decoder starts cold
 * (its cepstral mean is the profile's initial one for the whole first utterance).
 */
export const SENTENCES_PER_SESSION = 5;

export interface ConditionResult {
  readonly condition: EvalCondition;
  readonly errors: number;
  readonly words: number;
  readonly wer: number;
  /** What was recognised, session by session. */
  readonly transcripts: readonly string[];
}

export interface EvaluationOptions {
  readonly conditions: readonly EvalCondition[];
  readonly sentences: readonly string[];
  /** Sentences per session (default SENTENCES_PER_SESSION). */
  readonly perSession?: number;
  /** Noise floor of the clean conditions, dB below the speech (default NOISE_FLOOR_DB); null: digital silence. */
  readonly noiseFloor?: number | null;
  /** Sessions decoded at once (one recognition thread each). Default 2 (this machine's cores). */
  readonly parallel?: number;
  readonly engines?: OfflineEngineOptions;
  readonly onResult?: (result: ConditionResult, done: number, total: number) => void;
}

/** Splits the sentences into sessions of `perSession`. */
export function sessionsOf(sentences: readonly string[], perSession = SENTENCES_PER_SESSION): string[][] {
  if (!(Number.isInteger(perSession) && perSession >= 1)) throw new Error('sentences per session: a whole number >= 1');
  const sessions: string[][] = [];
  for (let index = 0; index < sentences.length; index += perSession)
    sessions.push(sentences.slice(index, index + perSession));
  return sessions;
}

/**
 * Every condition's sentences, spoken, noised and encoded as described there, streamed session by session
 * through the server's engines; WER = word errors over reference words, summed over the condition's sessions.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<ConditionResult[]> {
  const parallel = options.parallel ?? 2;
  const engines = createOfflineEngines({
    ...options.engines,
    recognizer: { idleWorkers: parallel, ...options.engines?.recognizer },
  });
  const sessions = sessionsOf(options.sentences, options.perSession);
  const results: ConditionResult[] = new Array(options.conditions.length);
  let next = 0;
  let done = 0;
  const runOne = async (condition: EvalCondition): Promise<ConditionResult> => {
    let errors = 0;
    let words = 0;
    const transcripts: string[] = [];
    for (const session of sessions) {
      const audio = encodePassage(
        passagePcm(condition, session, options.noiseFloor === undefined ? NOISE_FLOOR_DB : options.noiseFloor),
        condition.sampleRate,
        condition.format,
      );
      const transcript = await recognizeAudio(engines, audio.bytes, audio.contentType).catch((error: Error) => {
        throw new Error(`${conditionLabel(condition)}: ${error.message}`);
      });
      const counted = wordErrors(session.join(' '), transcript);
      errors += counted.errors;
      words += counted.referenceWords;
      transcripts.push(transcript);
    }
    return { condition, errors, words, wer: errors / Math.max(1, words), transcripts };
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(parallel, options.conditions.length) }, async () => {
        while (next < options.conditions.length) {
          const index = next++;
          results[index] = await runOne(options.conditions[index]);
          done += 1;
          options.onResult?.(results[index], done, options.conditions.length);
        }
      }),
    );
  } finally {
    await engines.close();
  }
  return results;
}
