import koffi from 'koffi';

/**
 * The live cepstral mean of a PocketSphinx decoder, read and weighed through sphinxbase's public structs: `feat_t`
 * (feat.h, up to its `cmn_struct` member) and `cmn_t` (cmn.h), as Debian's libsphinxbase3 0.8+5prealpha declares
 * them (`libsphinxbase-dev`; the decoder's `feat_t` comes from `ps_get_feat`). Float build (no FIXED_POINT).
 *
 * Why: the decoder normalises features by a mean it learns from what it hears, and libsphinxbase 5prealpha starts
 * that mean from `-cmninit` with a weight of zero frames. Its first utterance then replaces the mean outright. Over a
 * microphone's noise floor the voice activity detector often hears the first half second of noise as an
 * utterance (its noise estimate starts from the first frame): the mean became the noise's, and the sentence that
 * followed was decoded against it ("the train to boston" heard as "but i rent a boston"). Weighed as CMN_WIN frames
 * of speech, the initial mean moves a little with such a burst and still follows the speaker within a few seconds.
 */

const FeaturePrefix = koffi.struct('voice_stream_feat_t_prefix', {
  refcount: 'int',
  name: 'void*',
  cepsize: 'int32_t',
  n_stream: 'int32_t',
  stream_len: 'void*',
  window_size: 'int32_t',
  n_sv: 'int32_t',
  sv_len: 'void*',
  subvecs: 'void*',
  sv_buf: 'void*',
  sv_dim: 'int32_t',
  cmn: 'int',
  varnorm: 'int32_t',
  agc: 'int',
  compute_feat: 'void*',
  cmn_struct: 'void*',
});

const CepstralMeanState = koffi.struct('voice_stream_cmn_t', {
  cmn_mean: 'void*',
  cmn_var: 'void*',
  sum: 'void*',
  nframe: 'int32_t',
  veclen: 'int32_t',
});

interface CepstralMeanStruct {
  cmn_mean: unknown;
  cmn_var: unknown;
  sum: unknown;
  nframe: number;
  veclen: number;
}

/** The live mean, and how many frames of speech it counts as. */
export interface LiveCepstralMean {
  readonly mean: readonly number[];
  readonly frames: number;
}

/** sphinxbase's own window of the live mean (cmn.h `CMN_WIN`): the weight its later releases give `-cmninit`. */
export const CMN_WINDOW_FRAMES = 500;

function stateOf(features: unknown): { pointer: unknown; state: CepstralMeanStruct } {
  if (!features) throw new Error('the decoder has no feature computation (ps_get_feat returned NULL)');
  const pointer = (koffi.decode(features, FeaturePrefix) as { cmn_struct: unknown }).cmn_struct;
  if (!pointer) throw new Error('the decoder has no live cepstral mean (-cmn is not live)');
  const state = koffi.decode(pointer, CepstralMeanState) as CepstralMeanStruct;
  // A layout that does not match the library would show here first: 13 cepstra in every model we load.
  if (!(state.veclen > 0 && state.veclen <= 64)) throw new Error(`unexpected cepstral mean length ${state.veclen}`);
  return { pointer, state };
}

function meanOf(state: CepstralMeanStruct): number[] {
  return Array.from(koffi.decode(state.cmn_mean, 'float', state.veclen) as ArrayLike<number>);
}

/** The decoder's live mean (`features`: what `ps_get_feat` returned). */
export function readLiveCepstralMean(features: unknown): LiveCepstralMean {
  const { state } = stateOf(features);
  return { mean: meanOf(state), frames: state.nframe };
}

/**
 * Makes the current mean count as `frames` frames of speech (a whole number, checked where `-cmnweight` is read):
 * later speech moves it by its share of `frames` + its own frames (sphinxbase sums frames and divides at each
 * utterance's end).
 */
export function weighLiveCepstralMean(features: unknown, frames: number): void {
  const { pointer, state } = stateOf(features);
  koffi.encode(
    state.sum,
    'float',
    meanOf(state).map((value) => value * frames),
    state.veclen,
  );
  koffi.encode(pointer, CepstralMeanState, { ...state, nframe: frames });
}
