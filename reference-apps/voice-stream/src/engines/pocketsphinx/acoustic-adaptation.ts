import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The acoustic model adapted (MAP) to the evaluation's synthetic voices, one per acoustic profile, made from the
 * tuning sentences by `npm run adapt -w voice-stream` (src/cli/adapt/adapt-cli.ts: sphinxtrain's bw and
 * map_adapt) into this folder, never committed: the CI script and `npm start` make it when it is missing or
 * stale. A decoder of a profile loads its model from `<folder>/<profile>` (the adapted means, variances,
 * mixture weights and transition matrices, with the shipped model's other files); without it, the model as
 * Debian ships it. Docs: docs/voice-stream/recognition.md, "Acoustic adaptation".
 */
export const ADAPTATION_DIRECTORY =
  process.env.VOICE_STREAM_ADAPTATION ?? path.resolve(__dirname, '..', '..', '..', '..', 'acoustic-adaptation');

export type AdaptedProfile = 'wideband' | 'narrowband';

/** The files of an adapted model that differ from the shipped one. */
export const ADAPTED_FILES = ['means', 'variances', 'sendump', 'transition_matrices'] as const;

/** The adapted model folder of a profile, in `directory`. */
export function adaptedModelDirectory(profile: AdaptedProfile, directory: string = ADAPTATION_DIRECTORY): string {
  return path.join(directory, profile);
}

/** The adapted model a decoder of `profile` loads (`-hmm`), or undefined when there is none. */
export function adaptedModelFor(profile: AdaptedProfile): string | undefined {
  const folder = adaptedModelDirectory(profile);
  return ADAPTED_FILES.every((file) => existsSync(path.join(folder, file))) ? folder : undefined;
}

/** Which acoustic model a profile's decoders load, for the start-up log. */
export interface AcousticModelUse {
  readonly profile: AdaptedProfile;
  /** The adapted model's folder, or undefined: the model as Debian ships it. */
  readonly adapted: string | undefined;
  /** One line saying so; a missing adapted model is a warning, with the command that makes it. */
  readonly line: string;
}

/** What each profile's decoders will load, from `directory` (the server logs it at start). */
export function acousticModelUse(directory: string = ADAPTATION_DIRECTORY): AcousticModelUse[] {
  return (['wideband', 'narrowband'] as const).map((profile) => {
    const folder = adaptedModelDirectory(profile, directory);
    const adapted = ADAPTED_FILES.every((file) => existsSync(path.join(folder, file))) ? folder : undefined;
    const line = adapted
      ? `voice-stream: ${profile} audio is recognised with the adapted acoustic model in ${adapted}`
      : `voice-stream: WARNING: no adapted acoustic model for ${profile} audio in ${folder}: recognising with the model as Debian ships it, which recognises worse; make it with \`npm run adapt -w voice-stream\` (npm start does) or set VOICE_STREAM_ADAPTATION to its folder`;
    return { profile, adapted, line };
  });
}
