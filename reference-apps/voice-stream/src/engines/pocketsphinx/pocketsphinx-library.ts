import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import koffi from 'koffi';

/** Where Debian's `pocketsphinx-en-us` puts the US English model. */
export const DEFAULT_MODEL_DIRECTORY = process.env.VOICE_STREAM_POCKETSPHINX_MODEL ?? '/usr/share/pocketsphinx/model/en-us';

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
    writeFileSync(`${file}.part`, changed);
    renameSync(`${file}.part`, file);
  }
  return file;
}

/**
 * Search settings for live use. Measured with the recognition evaluation (`npm run eval`, tuning sentences,
 * docs/voice-stream.md "Recognition across voices"): the second "flat" pass and the lattice best path with the
 * default beam (30000 HMMs, 20 words per frame) took the mean WER of five voices from 0.43 to 0.36, no voice
 * worse (flite rms 0.10 -> 0.00, slt 0.22 -> 0.09, espeak-ng en-gb 0.86 -> 0.76). Before, both passes were off
 * and the beam narrowed to 3000/5 for speed (ps_end_utt 90-245 ms -> 5-24 ms, RTF 0.17 -> 0.11): accuracy
 * counts more; the end of an utterance now costs about 0.1-0.25 s more before its concluded segment.
 * 0.3 s of silence ends an utterance (default 0.5 s): 200 ms sooner to the concluded segment.
 */
const LIVE_SEARCH_ARGUMENTS = ['-fwdflat', 'yes', '-bestpath', 'yes', '-maxhmmpf', '30000', '-maxwpf', '20', '-vad_postspeech', '30'];

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
  readonly parseArguments: (inout: Pointer, definitions: Pointer, argc: number, argv: string[], strict: number) => Pointer;
  readonly init: (config: Pointer) => Pointer;
  readonly free: (decoder: Pointer) => number;
  readonly startUtterance: (decoder: Pointer) => number;
  readonly endUtterance: (decoder: Pointer) => number;
  readonly processRaw: (decoder: Pointer, samples: Int16Array, count: number, noSearch: number, fullUtterance: number) => number;
  readonly inSpeech: (decoder: Pointer) => number;
  readonly segmentIterator: (decoder: Pointer) => Pointer;
  readonly segmentNext: (segment: Pointer) => Pointer;
  readonly segmentWord: (segment: Pointer) => string;
  readonly segmentFrames: (segment: Pointer, start: number[], end: number[]) => void;

  constructor() {
    let pocketsphinx: koffi.IKoffiLib;
    let sphinxbase: koffi.IKoffiLib;
    try {
      pocketsphinx = koffi.load('libpocketsphinx.so.3');
      sphinxbase = koffi.load('libsphinxbase.so.3');
    } catch (error) {
      throw new Error(`PocketSphinx is not installed (${(error as Error).message}); run: ${POCKETSPHINX_INSTALL_COMMAND}`);
    }
    this.psArgs = pocketsphinx.func('void* ps_args()');
    this.parseArguments = sphinxbase.func('void* cmd_ln_parse_r(void* inout, void* defn, int argc, const char** argv, int strict)');
    this.init = pocketsphinx.func('void* ps_init(void* config)');
    this.free = pocketsphinx.func('int ps_free(void* ps)');
    this.startUtterance = pocketsphinx.func('int ps_start_utt(void* ps)');
    this.endUtterance = pocketsphinx.func('int ps_end_utt(void* ps)');
    this.processRaw = pocketsphinx.func('int ps_process_raw(void* ps, const int16_t* data, size_t n, int no_search, int full_utt)');
    this.inSpeech = pocketsphinx.func('uint8_t ps_get_in_speech(void* ps)');
    this.segmentIterator = pocketsphinx.func('void* ps_seg_iter(void* ps)');
    this.segmentNext = pocketsphinx.func('void* ps_seg_next(void* seg)');
    this.segmentWord = pocketsphinx.func('const char* ps_seg_word(void* seg)');
    this.segmentFrames = pocketsphinx.func('void ps_seg_frames(void* seg, _Out_ int* sf, _Out_ int* ef)');
  }
}

let functions: PocketSphinxFunctions | undefined;

/** A PocketSphinx decoder with its voice activity detection, fed 16 kHz s16le mono. */
export class PocketSphinxDecoder {
  private readonly lib: PocketSphinxFunctions;
  private readonly decoder: Pointer;
  private utteranceOpen = false;
  /** Samples fed since creation: frame numbers count from the decoder's creation. */
  private samplesProcessed = 0;

  constructor(
    modelDirectory: string = DEFAULT_MODEL_DIRECTORY,
    readonly profile: 'wideband' | 'narrowband' = 'wideband',
    /** More `-name value` settings, after (and so over) the live ones: for the recognition evaluation. */
    extraArguments: readonly string[] = [],
  ) {
    this.lib = functions ??= new PocketSphinxFunctions();
    const acoustic = path.join(modelDirectory, 'en-us');
    const languageModel = path.join(modelDirectory, 'en-us.lm.bin');
    const dictionary = path.join(modelDirectory, 'cmudict-en-us.dict');
    for (const file of [acoustic, languageModel, dictionary]) {
      if (!existsSync(file)) throw new Error(`PocketSphinx model file ${file} is missing; run: ${POCKETSPHINX_INSTALL_COMMAND}`);
    }
    const settings = new Map<string, string>();
    const take = (pairs: readonly string[]) => {
      for (let index = 0; index + 1 < pairs.length; index += 2) settings.set(pairs[index], pairs[index + 1]);
    };
    take(['-hmm', acoustic, '-lm', languageModel, '-dict', dictionary, '-logfn', '/dev/null', ...LIVE_SEARCH_ARGUMENTS]);
    // PocketSphinx refuses a setting given twice: the extra ones replace the live ones.
    take(extraArguments);
    const cmnInit = settings.get('-cmninit') ?? (profile === 'narrowband' ? NARROWBAND_CMN_INIT : undefined);
    settings.delete('-cmninit');
    if (cmnInit !== undefined) settings.set('-featparams', featureParametersWith(acoustic, cmnInit));
    const argv = [...settings].flat();
    const config = this.lib.parseArguments(null, this.lib.psArgs(), argv.length, argv, 1);
    if (!config) throw new Error('PocketSphinx rejected its configuration');
    this.decoder = this.lib.init(config);
    if (!this.decoder) throw new Error(`PocketSphinx could not load the model in ${modelDirectory}`);
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
