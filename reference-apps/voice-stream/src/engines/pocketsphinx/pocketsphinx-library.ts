import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import koffi from 'koffi';
import { adaptedModelFor } from './acoustic-adaptation';
import { everydayLanguageModelFile } from './language-model/everyday-language-model';
import type { CustomVocabulary } from '../speech-recognizer';
import {
  CMN_WINDOW_FRAMES,
  readLiveCepstralMean,
  weighLiveCepstralMean,
  type LiveCepstralMean,
} from './live-cepstral-mean';
import { dictionaryWithWords, TERMS_WEIGHT, termsLanguageModel } from './session-vocabulary';

/** Where Debian's `pocketsphinx-en-us` puts the US English model. */
export const DEFAULT_MODEL_DIRECTORY =
  process.env.VOICE_STREAM_POCKETSPHINX_MODEL ?? '/usr/share/pocketsphinx/model/en-us';

/** Install hint when the shared library or model is missing. */
export const POCKETSPHINX_INSTALL_COMMAND = 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us';

/**
 * Initial cepstral mean for telephone-band audio. The model's own `-cmninit` suits 16 kHz wideband speech;
 * audio with nothing above 4 kHz has very different higher cepstra, and the live mean needs many seconds
 * to get there, so the first sentence was lost ("what"). Measured here: the mean PocketSphinx converged
 * to on 25 s of flite speech sent through 8 kHz µ-law (single-sentence WER 1.0 -> 0.0).
 */
const NARROWBAND_CMN_INIT = '45.5,25.0,-22.6,59.3,-20.2,20.6,3.3,-15.8,3.4,-18.3,15.9,-2.9,4.3';

/**
 * The model's feat.params always overrides `-cmninit` given on the command line, so another initial mean is
 * a copy of feat.params with that mean, passed with `-featparams` (one file per mean, made once).
 */
function featureParametersWith(acousticModel: string, cmnInit: string): string {
  const key = createHash('sha1').update(`${acousticModel}\0${cmnInit}`).digest('hex').slice(0, 12);
  const file = path.join(tmpdir(), `voice-stream-pocketsphinx-${key}-${process.pid}.params`);
  if (!existsSync(file)) {
    const original = readFileSync(path.join(acousticModel, 'feat.params'), 'utf8');
    const changed = /^-cmninit .*$/m.test(original)
      ? original.replace(/^-cmninit .*$/m, `-cmninit ${cmnInit}`)
      : `${original.trimEnd()}\n-cmninit ${cmnInit}\n`;
    // Decoders load in several worker threads of this process at once: a partial file of their own each (one
    // name per process let a second thread truncate the file the first was renaming into place).
    const partial = `${file}.${Math.random().toString(36).slice(2)}.part`;
    writeFileSync(partial, changed);
    renameSync(partial, file);
  }
  return file;
}

/**
 * Search settings for live use. Measured with the recognition evaluation (`npm run eval`, tuning sentences,
 * docs/voice-stream/recognition.md): the second "flat" pass and the lattice best path with the
 * default beam (30000 HMMs, 20 words per frame) took the mean WER of five voices from 0.43 to 0.36, no voice
 * worse (flite rms 0.10 -> 0.00, slt 0.22 -> 0.09, espeak-ng en-gb 0.86 -> 0.76). Before, both passes were off
 * and the beam narrowed to 3000/5 for speed (ps_end_utt 90-245 ms -> 5-24 ms, RTF 0.17 -> 0.11): accuracy
 * counts more; the end of an utterance now costs about 0.1-0.25 s more before its concluded segment.
 * 0.3 s of silence ends an utterance (default 0.5 s): 200 ms sooner to the concluded segment.
 */
/**
 * The language model: PocketSphinx's general US English model (`en-us.lm.bin`) linearly mixed, half and half,
 * with a trigram model of the app's everyday domain (everyday-language-model.ts), over a vocabulary of the
 * general model's likeliest words (VOCABULARY) plus the domain's ~800. Measured with the recognition evaluation
 * (tuning sentences, five voices, docs/voice-stream/recognition.md): mean WER 0.36 -> 0.29, no voice worse (espeak-ng
 * en-us 0.64 -> 0.51), and 2.4 times less decoder CPU per second of audio (0.23 -> 0.10 s) than the general
 * model alone over its 134,000 words. The domain model alone did as well on espeak-ng but lost words outside
 * its corpus; the mix keeps everyday English outside the domain recognisable.
 */
const DOMAIN_WEIGHT = 0.5;

/**
 * Words of the general model kept in the dictionary, besides the domain's (0: all of the dictionary's 134,000).
 * 20,000 rather than the 5,000 first chosen on synthetic voices: real recordings (pocketsphinx-testdata and
 * alsa-utils, 112 words, one per session) had 11 words out of a 5,000-word vocabulary and 4 out of this one, WER
 * 0.39 -> 0.36 at 16 kHz and 0.60 -> 0.54 at 8 kHz; the held-out synthetic voices 0.22 -> 0.24 (16 kHz) and 0.30 ->
 * 0.29 (8 kHz); decoder CPU about the same. The whole dictionary was worse on synthetic voices (espeak-ng en-029
 * 0.47 -> 0.79 at 16 kHz) at 1.7 times the CPU.
 */
const VOCABULARY = 20000;

/** The words of an ARPA file's unigrams. */
function arpaVocabulary(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('\\1-grams:');
  const end = text.indexOf('\\2-grams:');
  const words = new Set<string>();
  for (const line of text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .slice(1)) {
    const word = line.split('\t')[1];
    if (word && word !== '<s>' && word !== '</s>') words.add(word);
  }
  return words;
}

const LIVE_SEARCH_ARGUMENTS = [
  '-fwdflat',
  'yes',
  '-bestpath',
  'yes',
  '-maxhmmpf',
  '30000',
  '-maxwpf',
  '20',
  '-vad_postspeech',
  '30',
];

/** One recognised word, in 10 ms frames counted since the decoder was created. */
export interface DecodedWord {
  readonly word: string;
  readonly startFrame: number;
  readonly endFrame: number;
}

/** Frame length of the default acoustic front end (`-frate 100`). */
export const FRAME_MS = 10;

// Fillers and sentence markers are not words of the transcript.
const NON_WORD = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/i;

type Pointer = unknown;

/**
 * Binding to Debian 12's `libpocketsphinx.so.3` (5prealpha ABI: `cmd_ln_parse_r` + `ps_args` from
 * sphinxbase) through koffi. A wrong signature would crash the process, so this runs in a worker thread.
 */
class PocketSphinxFunctions {
  readonly psArgs: () => Pointer;
  readonly parseArguments: (
    inout: Pointer,
    definitions: Pointer,
    argc: number,
    argv: string[],
    strict: number,
  ) => Pointer;
  readonly init: (config: Pointer) => Pointer;
  readonly free: (decoder: Pointer) => number;
  readonly startUtterance: (decoder: Pointer) => number;
  readonly endUtterance: (decoder: Pointer) => number;
  readonly processRaw: (
    decoder: Pointer,
    samples: Int16Array,
    count: number,
    noSearch: number,
    fullUtterance: number,
  ) => number;
  readonly inSpeech: (decoder: Pointer) => number;
  readonly segmentIterator: (decoder: Pointer) => Pointer;
  readonly segmentNext: (segment: Pointer) => Pointer;
  readonly segmentWord: (segment: Pointer) => string;
  readonly segmentFrames: (segment: Pointer, start: number[], end: number[]) => void;
  readonly getLogMath: (decoder: Pointer) => Pointer;
  readonly readLanguageModel: (config: Pointer, file: string, type: number, logMath: Pointer) => Pointer;
  readonly languageModelSet: (
    config: Pointer,
    models: Pointer[],
    names: string[],
    weights: Float32Array,
    count: number,
  ) => Pointer;
  readonly freeLanguageModel: (model: Pointer) => number;
  readonly setLanguageModel: (decoder: Pointer, name: string, model: Pointer) => number;
  readonly setSearch: (decoder: Pointer, name: string) => number;
  readonly logMathInit: (base: number, shift: number, useTable: number) => Pointer;
  readonly logMathFree: (logMath: Pointer) => number;
  readonly silenceLog: (stream: null) => void;
  readonly wordId: (model: Pointer, word: string) => number;
  readonly ngramScore: (model: Pointer, wordId: number, history: null, historyLength: number, used: number[]) => number;
  readonly getFeatures: (decoder: Pointer) => Pointer;

  constructor() {
    let pocketsphinx: koffi.IKoffiLib;
    let sphinxbase: koffi.IKoffiLib;
    try {
      pocketsphinx = koffi.load('libpocketsphinx.so.3');
      sphinxbase = koffi.load('libsphinxbase.so.3');
    } catch (error) {
      throw new Error(
        `PocketSphinx is not installed (${(error as Error).message}); run: ${POCKETSPHINX_INSTALL_COMMAND}`,
      );
    }
    this.psArgs = pocketsphinx.func('void* ps_args()');
    this.parseArguments = sphinxbase.func(
      'void* cmd_ln_parse_r(void* inout, void* defn, int argc, const char** argv, int strict)',
    );
    this.init = pocketsphinx.func('void* ps_init(void* config)');
    this.free = pocketsphinx.func('int ps_free(void* ps)');
    this.startUtterance = pocketsphinx.func('int ps_start_utt(void* ps)');
    this.endUtterance = pocketsphinx.func('int ps_end_utt(void* ps)');
    this.processRaw = pocketsphinx.func(
      'int ps_process_raw(void* ps, const int16_t* data, size_t n, int no_search, int full_utt)',
    );
    this.inSpeech = pocketsphinx.func('uint8_t ps_get_in_speech(void* ps)');
    this.segmentIterator = pocketsphinx.func('void* ps_seg_iter(void* ps)');
    this.segmentNext = pocketsphinx.func('void* ps_seg_next(void* seg)');
    this.segmentWord = pocketsphinx.func('const char* ps_seg_word(void* seg)');
    this.segmentFrames = pocketsphinx.func('void ps_seg_frames(void* seg, _Out_ int* sf, _Out_ int* ef)');
    this.getLogMath = pocketsphinx.func('void* ps_get_logmath(void* ps)');
    this.readLanguageModel = sphinxbase.func(
      'void* ngram_model_read(void* config, const char* file, int type, void* lmath)',
    );
    this.languageModelSet = sphinxbase.func(
      'void* ngram_model_set_init(void* config, void** models, const char** names, const float* weights, int n)',
    );
    this.freeLanguageModel = sphinxbase.func('int ngram_model_free(void* model)');
    this.setLanguageModel = pocketsphinx.func('int ps_set_lm(void* ps, const char* name, void* lm)');
    this.setSearch = pocketsphinx.func('int ps_set_search(void* ps, const char* name)');
    this.logMathInit = sphinxbase.func('void* logmath_init(double base, int shift, int use_table)');
    this.logMathFree = sphinxbase.func('int logmath_free(void* lmath)');
    this.silenceLog = sphinxbase.func('void err_set_logfp(void* stream)');
    this.getFeatures = pocketsphinx.func('void* ps_get_feat(void* ps)');
    this.wordId = sphinxbase.func('int ngram_wid(void* model, const char* word)');
    this.ngramScore = sphinxbase.func(
      'int ngram_ng_score(void* model, int wid, int* history, int n_hist, _Out_ int* n_used)',
    );
    // sphinxbase logs through one FILE shared by the whole process. A decoder given `-logfn` opens a new FILE
    // in ps_init and fcloses the previous one while decoders loading in other workers still write to it: the
    // writes land in freed memory and corrupt the heap, which later aborted or crashed the process (free():
    // invalid next size, tcache_thread_shutdown, SIGSEGV at shutdown). Logging is switched off here instead,
    // before this thread's first decoder, and never switched back on (every thread stores the same NULL).
    this.silenceLog(null);
  }
}

let functions: PocketSphinxFunctions | undefined;

let pinned: unknown[] | undefined;

/**
 * Loads PocketSphinx's libraries once in the calling thread (the main one) and keeps them for the life of the
 * process. Each worker loads them too (koffi, per thread), and its finalizers `dlclose` them when its thread
 * ends: without a reference held here, the last worker to end unloaded libpocketsphinx, libsphinxbase and
 * what they pull in (LAPACK, BLAS, libgfortran: constructors, destructors, thread-local state) and the next
 * session loaded them all again, while other workers were starting or ending. Nothing is called through these
 * handles. Quietly does nothing when PocketSphinx is not installed (the workers report that).
 */
export function pinPocketSphinxLibraries(): void {
  if (pinned) return;
  try {
    pinned = [koffi.load('libsphinxbase.so.3'), koffi.load('libpocketsphinx.so.3')];
  } catch {
    pinned = [];
  }
}

/**
 * A copy of the dictionary limited to the `size` words the general model finds most likely on their own
 * (unigram probability) plus `keep` (the domain model's words): a smaller search, and no rare words for
 * sounds a synthetic or noisy voice only approximates. Made once per setting in the temp folder.
 */
function limitedDictionary(
  lib: PocketSphinxFunctions,
  dictionaryFile: string,
  languageModelFile: string,
  size: number,
  keep: ReadonlySet<string>,
): string {
  const key = createHash('sha1')
    .update(`${dictionaryFile}\0${languageModelFile}\0${size}\0${[...keep].sort().join(' ')}`)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(tmpdir(), `voice-stream-dictionary-${key}.dict`);
  if (existsSync(file)) return file;
  const lines = readFileSync(dictionaryFile, 'utf8').split('\n').filter(Boolean);
  const headword = (line: string) => line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '');
  const logMath = lib.logMathInit(1.0001, 0, 0);
  const model = lib.readLanguageModel(null, languageModelFile, 0, logMath);
  if (!model) {
    lib.logMathFree(logMath);
    throw new Error(`PocketSphinx could not read the language model ${languageModelFile}`);
  }
  const scores = new Map<string, number>();
  try {
    for (const word of new Set(lines.map(headword))) {
      const id = lib.wordId(model, word);
      if (id >= 0) scores.set(word, lib.ngramScore(model, id, null, 0, [0]));
    }
  } finally {
    lib.freeLanguageModel(model);
    lib.logMathFree(logMath);
  }
  const chosen = new Set(
    [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, size)
      .map(([word]) => word),
  );
  for (const word of keep) chosen.add(word);
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
  writeFileSync(partial, `${lines.filter((line) => chosen.has(headword(line))).join('\n')}\n`);
  renameSync(partial, file);
  return file;
}

/**
 * The words a decoder made with `extraArguments` can recognise (its dictionary's headwords, before a session's spoken
 * terms): for the evaluation's out-of-vocabulary count. Reads the same settings as the decoder (`-dict`, `-lm`,
 * `-domainlm`, `-vocabulary`).
 */
export function decoderVocabulary(
  extraArguments: readonly string[] = [],
  modelDirectory: string = DEFAULT_MODEL_DIRECTORY,
): Set<string> {
  const lib = (functions ??= new PocketSphinxFunctions());
  const settings = new Map<string, string>();
  for (let index = 0; index + 1 < extraArguments.length; index += 2)
    settings.set(extraArguments[index], extraArguments[index + 1]);
  const dictionary = settings.get('-dict') ?? path.join(modelDirectory, 'cmudict-en-us.dict');
  const generalModel = settings.get('-lm') ?? path.join(modelDirectory, 'en-us.lm.bin');
  const domainSetting = settings.get('-domainlm') ?? 'everyday';
  const size = Number(settings.get('-vocabulary') ?? VOCABULARY);
  const domainModel = domainSetting === 'everyday' ? everydayLanguageModelFile(dictionary) : domainSetting;
  const file =
    size > 0
      ? limitedDictionary(
          lib,
          dictionary,
          generalModel,
          size,
          domainSetting === 'none' ? new Set<string>() : arpaVocabulary(domainModel),
        )
      : dictionary;
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '')),
  );
}

/** One model of a language model mix, and its weight. */
interface LanguageModelPart {
  readonly name: string;
  readonly file: string;
  readonly weight: number;
}

/** A PocketSphinx decoder with its voice activity detection, fed 16 kHz s16le mono. */
export class PocketSphinxDecoder {
  private readonly lib: PocketSphinxFunctions;
  private readonly decoder: Pointer;
  private utteranceOpen = false;
  /** Samples fed since creation: frame numbers count from the decoder's creation. */
  private samplesProcessed = 0;
  /** Whether a stream's first utterance is decoded a second time once its cepstral mean is known (-firstpass2). */
  readonly redecodesFirstUtterance: boolean;

  constructor(
    modelDirectory: string = DEFAULT_MODEL_DIRECTORY,
    readonly profile: 'wideband' | 'narrowband' = 'wideband',
    /**
     * More `-name value` settings, after (and so over) the live ones: for the recognition evaluation. Besides
     * PocketSphinx's own: `-domainlm everyday|none|<arpa file>`, `-domainweight 0..1` (1: the domain model
     * alone), `-vocabulary N` (0: the whole dictionary); `-adaptation none` decodes with the model as shipped
     * instead of the profile's adapted one (acoustic-adaptation.ts); `-firstpass2 no` keeps a stream's first
     * utterance as its cold first pass heard it (utterance-tracker.ts); `-cmnweight N` weighs the initial cepstral
     * mean as N frames of speech (0: the library's own zero, which lets the first utterance replace it).
     */
    extraArguments: readonly string[] = [],
    /** A session's own words (spoken terms): added to the dictionary and mixed into the language model. */
    vocabulary?: CustomVocabulary,
  ) {
    this.lib = functions ??= new PocketSphinxFunctions();
    const acoustic = path.join(modelDirectory, 'en-us');
    const languageModel = path.join(modelDirectory, 'en-us.lm.bin');
    const dictionary = path.join(modelDirectory, 'cmudict-en-us.dict');
    for (const file of [acoustic, languageModel, dictionary]) {
      if (!existsSync(file))
        throw new Error(`PocketSphinx model file ${file} is missing; run: ${POCKETSPHINX_INSTALL_COMMAND}`);
    }
    const settings = new Map<string, string>();
    const take = (pairs: readonly string[]) => {
      for (let index = 0; index + 1 < pairs.length; index += 2) settings.set(pairs[index], pairs[index + 1]);
    };
    // No `-logfn`: sphinxbase's log is off for the whole process (PocketSphinxFunctions), a log file per decoder is unsafe.
    take(['-hmm', acoustic, '-lm', languageModel, '-dict', dictionary, ...LIVE_SEARCH_ARGUMENTS]);
    // PocketSphinx refuses a setting given twice: the extra ones replace the live ones.
    take(extraArguments);
    if (settings.has('-logfn'))
      throw new Error('-logfn is not supported: a decoder opening its log file closes the one other decoders write to');
    // The profile's adapted model (acoustic-adaptation.ts), unless `-adaptation none` or an explicit `-hmm`.
    const adaptation = settings.get('-adaptation');
    settings.delete('-adaptation');
    const adapted = adaptation === 'none' || extraArguments.includes('-hmm') ? undefined : adaptedModelFor(profile);
    if (adapted !== undefined) settings.set('-hmm', adapted);
    // The initial cepstral mean: an adapted model's feat.params carries the mean of its profile's adaptation speech
    // (src/cli/adapt; a folder of an older recipe links the shipped file instead); the model as shipped has a
    // wideband one, replaced for narrowband audio.
    const adaptedMean = adapted !== undefined && !lstatSync(path.join(adapted, 'feat.params')).isSymbolicLink();
    const cmnInit =
      settings.get('-cmninit') ?? (profile === 'narrowband' && !adaptedMean ? NARROWBAND_CMN_INIT : undefined);
    settings.delete('-cmninit');
    if (cmnInit !== undefined) settings.set('-featparams', featureParametersWith(settings.get('-hmm')!, cmnInit));
    // Settings of ours (not PocketSphinx's): the first utterance's second pass (utterance-tracker.ts).
    const secondPass = settings.get('-firstpass2') ?? 'yes';
    settings.delete('-firstpass2');
    if (secondPass !== 'yes' && secondPass !== 'no') throw new Error(`-firstpass2 is yes or no, not ${secondPass}`);
    this.redecodesFirstUtterance = secondPass === 'yes';
    const meanWeightSetting = settings.get('-cmnweight');
    settings.delete('-cmnweight');
    const meanWeight = Number(meanWeightSetting ?? CMN_WINDOW_FRAMES);
    if (!(Number.isInteger(meanWeight) && meanWeight >= 0))
      throw new Error(`-cmnweight is a whole number of frames, not ${meanWeightSetting}`);
    // The domain model and its weight in the mix.
    const domainSetting = settings.get('-domainlm') ?? 'everyday';
    const weightSetting = settings.get('-domainweight');
    const domainWeight = Number(weightSetting ?? DOMAIN_WEIGHT);
    settings.delete('-domainlm');
    settings.delete('-domainweight');
    if (!(domainWeight >= 0 && domainWeight <= 1))
      throw new Error(`-domainweight must be between 0 and 1, not ${weightSetting}`);
    const domainModel =
      domainSetting === 'everyday' ? everydayLanguageModelFile(settings.get('-dict')!) : domainSetting;
    const generalModel = settings.get('-lm')!;
    const mixed = domainSetting !== 'none' && domainWeight > 0 && domainWeight < 1;
    const vocabularySize = Number(settings.get('-vocabulary') ?? VOCABULARY);
    settings.delete('-vocabulary');
    if (vocabularySize > 0) {
      const keep = domainSetting === 'none' ? new Set<string>() : arpaVocabulary(domainModel);
      settings.set('-dict', limitedDictionary(this.lib, settings.get('-dict')!, generalModel, vocabularySize, keep));
    }
    if (domainSetting !== 'none' && domainWeight === 1) settings.set('-lm', domainModel);
    let models: LanguageModelPart[] | undefined = mixed
      ? [
          { name: 'general', file: generalModel, weight: 1 - domainWeight },
          { name: 'domain', file: domainModel, weight: domainWeight },
        ]
      : undefined;
    if (vocabulary && vocabulary.words.length > 0) {
      settings.set('-dict', dictionaryWithWords(settings.get('-dict')!, vocabulary));
      const base = models ?? [{ name: 'base', file: settings.get('-lm')!, weight: 1 }];
      models = [
        ...base.map((part) => ({ ...part, weight: part.weight * (1 - TERMS_WEIGHT) })),
        { name: 'terms', file: termsLanguageModel(vocabulary), weight: TERMS_WEIGHT },
      ];
    }
    // A mix is installed after the decoder is made (PocketSphinx starts without a search then).
    if (models) settings.delete('-lm');
    const argv = [...settings].flat();
    const config = this.lib.parseArguments(null, this.lib.psArgs(), argv.length, argv, 1);
    if (!config) throw new Error('PocketSphinx rejected its configuration');
    this.decoder = this.lib.init(config);
    if (!this.decoder) throw new Error(`PocketSphinx could not load the model in ${modelDirectory}`);
    if (models) this.installMixedModel(config, models);
    // The initial mean counts as speech heard (live-cepstral-mean.ts): a burst of noise first does not replace it.
    if (meanWeight > 0) weighLiveCepstralMean(this.lib.getFeatures(this.decoder), meanWeight);
  }

  /** The cepstral mean the decoder normalises by now, and how many frames it counts as (diagnostics, tests). */
  cepstralMean(): LiveCepstralMean {
    return readLiveCepstralMean(this.lib.getFeatures(this.decoder));
  }

  /**
   * Linear interpolation of language models (sphinxbase's model set, which scores every n-gram as the weighted sum of
   * the models' probabilities over the union of their vocabularies): the general and the domain model, and a
   * session's spoken terms when it has any.
   */
  private installMixedModel(config: Pointer, parts: readonly LanguageModelPart[]): void {
    const logMath = this.lib.getLogMath(this.decoder);
    const models = parts.map((part) => this.lib.readLanguageModel(config, part.file, 0, logMath));
    if (models.some((model) => !model)) {
      for (const model of models) if (model) this.lib.freeLanguageModel(model);
      this.lib.free(this.decoder);
      throw new Error(`PocketSphinx could not read the language models ${parts.map((part) => part.file).join(', ')}`);
    }
    const set = this.lib.languageModelSet(
      config,
      models,
      parts.map((part) => part.name),
      new Float32Array(parts.map((part) => part.weight)),
      parts.length,
    );
    // The set holds its own references to the models.
    for (const model of models) this.lib.freeLanguageModel(model);
    if (
      !set ||
      this.lib.setLanguageModel(this.decoder, 'mixed', set) < 0 ||
      this.lib.setSearch(this.decoder, 'mixed') < 0
    ) {
      this.lib.free(this.decoder);
      throw new Error('PocketSphinx could not use the mixed language model');
    }
    // The search holds its own reference to the set.
    this.lib.freeLanguageModel(set);
  }

  /** Total frames fed so far (the frame clock word times are measured on). */
  get frameClock(): number {
    return Math.floor(this.samplesProcessed / 160);
  }

  startUtterance(): void {
    if (this.lib.startUtterance(this.decoder) < 0) throw new Error('ps_start_utt failed');
    this.utteranceOpen = true;
  }

  process(samples: Int16Array): void {
    if (!this.utteranceOpen) this.startUtterance();
    if (this.lib.processRaw(this.decoder, samples, samples.length, 0, 0) < 0) throw new Error('ps_process_raw failed');
    this.samplesProcessed += samples.length;
  }

  /** Whether the voice activity detector currently hears speech. */
  get inSpeech(): boolean {
    return this.lib.inSpeech(this.decoder) !== 0;
  }

  /** Words of the current best hypothesis (partial while the utterance is open, final after `endUtterance`). */
  words(): DecodedWord[] {
    const words: DecodedWord[] = [];
    let segment = this.lib.segmentIterator(this.decoder);
    while (segment) {
      const raw = this.lib.segmentWord(segment);
      if (raw && !NON_WORD.test(raw)) {
        const start = [0];
        const end = [0];
        this.lib.segmentFrames(segment, start, end);
        // Alternate pronunciations are marked `word(2)`.
        words.push({ word: raw.replace(/\(\d+\)$/, ''), startFrame: start[0], endFrame: end[0] });
      }
      segment = this.lib.segmentNext(segment);
    }
    return words;
  }

  endUtterance(): void {
    if (!this.utteranceOpen) return;
    this.utteranceOpen = false;
    if (this.lib.endUtterance(this.decoder) < 0) throw new Error('ps_end_utt failed');
  }

  free(): void {
    this.lib.free(this.decoder);
  }
}
