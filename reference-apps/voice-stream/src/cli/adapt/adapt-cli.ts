#!/usr/bin/env node
/**
 * Makes the acoustic model adapted to the recognition evaluation's voices (acoustic-adaptation/wideband and
 * narrowband: MAP re-estimates of the means, variances, mixture weights and transition matrices) from the TUNING
 * sentences spoken by those voices, the CMU Sphinx tutorial's recipe ("Adapting the default acoustic model")
 * with Debian's tools only:
 *   npm run adapt -w voice-stream -- [--voices flite-rms,espeak-en-us] [--rates 16000,8000] [--tau 100]
 *     [--narrowband-tau 8] [--out DIR] [--work DIR] [--if-stale]
 * Needs `apt-get install -y sphinxtrain sphinxbase-utils pocketsphinx` (bw, map_adapt, mk_s2sendump, sphinx_fe,
 * pocketsphinx_mdef_convert). `--if-stale` does nothing when the folder was made from the same inputs (sentences,
 * voices, rates, settings, package versions: the key in its SOURCES.txt); the CI script and `npm start` run it so.
 *
 * 1. Each tuning sentence (never an evaluation one) of each voice, at each rate, is made into the 16 kHz PCM the
 *    recogniser is fed (sox to the rate, then ffmpeg's resampler to 16 kHz as the server's decoder does), and
 *    goes to the profile the server would decode it with: 8 kHz audio is narrowband; 16 kHz audio is what the
 *    bandwidth detector hears (flite's kal is an 8 kHz voice: narrowband).
 * 2. sphinx_fe computes its features with the model's feat.params.
 * 3. bw aligns them to their transcripts and collects counts, per profile (the model's mixture weights are
 *    rebuilt from its sendump: sphinx-model-files.ts).
 * 4. map_adapt re-estimates the model from the counts, with a fixed prior weight tau (the counts of the original
 *    model's training each parameter is worth); mk_s2sendump quantises the mixture weights for PocketSphinx.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ADAPTATION_DIRECTORY } from '../../engines/pocketsphinx/acoustic-adaptation';
import { BandwidthDetector, type Bandwidth } from '../../engines/pocketsphinx/bandwidth-detector';
import { DEFAULT_MODEL_DIRECTORY } from '../../engines/pocketsphinx/pocketsphinx-library';
import { resample, synthesize } from '../eval/eval-audio';
import { ADAPTATION_VOICES } from '../eval/eval-conditions';
import { TUNING_SENTENCES } from '../eval/eval-sentences';
import {
  mixtureWeightsFile,
  readFeatureFile,
  readSendump,
  speechCepstralMean,
  withCmnInit,
} from './sphinx-model-files';

const SPHINXTRAIN = process.env.SPHINXTRAIN_DIRECTORY ?? '/usr/lib/sphinxtrain';
const INSTALL = 'apt-get install -y sphinxtrain sphinxbase-utils pocketsphinx';
/** Silence around each sentence, as between the sentences of a session. */
const PADDING_MS = 300;
/**
 * bw's forward and backward beams (default 1e-100): at the default, 48 of 260 narrowband utterances (espeak-ng's
 * British voices) could not be aligned to their transcripts; at 1e-160, 16; at 1e-300 bw's arithmetic underflows.
 */
const BW_BEAM = '1e-160';
/**
 * map_adapt's prior weight per profile (fixed, not the Bayesian default, which follows the adaptation data alone).
 * Measured (docs/voice-stream/recognition.md, "Acoustic adaptation"): the Bayesian update took the synthetic voices furthest
 * but real speech (pocketsphinx-testdata, 16 kHz) from WER 0.41 to 0.60; tau 100 keeps real speech where it was.
 * Narrowband audio is further from the (wideband) model: tau 30 there took the British and female espeak-ng voices
 * at 8 kHz from 0.27-0.47 to 0.10-0.37; tau 8 takes the held-out voices at 8 kHz from 0.21 to 0.18 (espeak-ng
 * en-029 0.49 -> 0.37) and leaves real speech at 8 kHz where it was (56 -> 55 errors of 112); tau 4 is no better.
 */
const DEFAULT_TAU = { wideband: 100, narrowband: 8 };
/** Raised when the recipe changes, so `--if-stale` remakes folders made by an older one. */
const RECIPE_VERSION = 3;
/** The packages whose versions decide the result: recorded in SOURCES.txt and in its key. */
const PACKAGES = [
  'flite',
  'espeak-ng',
  'espeak-ng-data',
  'sox',
  'ffmpeg',
  'pocketsphinx-en-us',
  'sphinxtrain',
  'sphinxbase-utils',
];

const OPTIONS = {
  voices: { type: 'string' },
  rates: { type: 'string', default: '16000,8000' },
  out: { type: 'string', default: ADAPTATION_DIRECTORY },
  work: { type: 'string' },
  tau: { type: 'string', default: String(DEFAULT_TAU.wideband) },
  'narrowband-tau': { type: 'string', default: String(DEFAULT_TAU.narrowband) },
  'if-stale': { type: 'boolean', default: false },
} as const;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The transcript's words as the dictionary spells them: lower case, no punctuation. */
function transcriptWords(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

function tool(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing; run: ${INSTALL}`);
  return file;
}

function onPath(name: string): string {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'pipe' });
  } catch {
    throw new Error(`${name} is missing; run: ${INSTALL}`);
  }
  return name;
}

/** Runs a tool, keeping its stdout and stderr (bw reports the utterances it could not align on stderr) in `logFile`. */
function run(command: string, args: readonly string[], logFile: string): string {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
  });
  const log = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(logFile, log);
  if (result.error || result.status !== 0) {
    throw new Error(
      `${path.basename(command)} failed (${result.error?.message ?? result.signal ?? `exit ${result.status}`}; log: ${logFile})`,
    );
  }
  return log;
}

/** `run`, without blocking: the two profiles' counts and models are made at once, one core each. */
function runAsync(command: string, args: readonly string[], logFile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) =>
      reject(new Error(`${path.basename(command)} failed (${error.message}; log: ${logFile})`)),
    );
    child.on('close', (status, signal) => {
      const log = Buffer.concat(chunks).toString('utf8');
      writeFileSync(logFile, log);
      if (status !== 0)
        reject(new Error(`${path.basename(command)} failed (${signal ?? `exit ${status}`}; log: ${logFile})`));
      else resolve(log);
    });
  });
}

/** 16 kHz PCM as the recogniser receives audio sent at `rate` (the server's ffmpeg decoder upsamples it). */
function asReceived(pcm: Buffer, rate: number): Buffer {
  if (rate === 16000) return pcm;
  return execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      String(rate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-f',
      's16le',
      'pipe:1',
    ],
    { input: pcm, maxBuffer: 256 * 1024 * 1024 },
  );
}

function packageVersions(): string[] {
  return PACKAGES.map((name) => {
    try {
      return `${name} ${execFileSync('dpkg-query', ['-W', '-f', '${Version}', name], { encoding: 'utf8', stdio: 'pipe' })}`;
    } catch {
      return `${name} (not installed)`;
    }
  });
}

async function main(argv: readonly string[]): Promise<number> {
  const flags = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values;
  const voices = ADAPTATION_VOICES.filter(
    (voice) =>
      !flags.voices || list(flags.voices)!.some((name) => voice.name === name || voice.name.startsWith(`${name}-`)),
  );
  const rates = list(flags.rates)!.map(Number);
  const tau = { wideband: Number(flags.tau), narrowband: Number(flags['narrowband-tau']) };
  if (voices.length === 0) throw new Error('--voices matches no voice');
  if (rates.length === 0 || rates.some((rate) => rate !== 8000 && rate !== 16000))
    throw new Error('--rates are 8000 and/or 16000');
  if (!(tau.wideband > 0 && tau.narrowband > 0)) throw new Error('--tau and --narrowband-tau are positive numbers');
  const out = path.resolve(flags.out);
  const versions = packageVersions();
  // What the result depends on: the same key, the same model (bw and map_adapt are deterministic).
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        recipe: RECIPE_VERSION,
        sentences: TUNING_SENTENCES,
        voices,
        rates,
        tau,
        beam: BW_BEAM,
        padding: PADDING_MS,
        versions,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const sourcesFile = path.join(out, 'SOURCES.txt');
  if (flags['if-stale'] && existsSync(sourcesFile) && readFileSync(sourcesFile, 'utf8').includes(`Key: ${key}\n`)) {
    console.log(`adapt: ${out} is up to date (key ${key})`);
    return 0;
  }
  const bw = tool(path.join(SPHINXTRAIN, 'bw'));
  const mapAdapt = tool(path.join(SPHINXTRAIN, 'map_adapt'));
  const sendumpTool = tool(path.join(SPHINXTRAIN, 'mk_s2sendump'));
  const sphinxFe = onPath('sphinx_fe');
  const mdefConvert = onPath('pocketsphinx_mdef_convert');
  const work = flags.work ?? mkdtempSync(path.join(tmpdir(), 'voice-stream-adapt-'));
  mkdirSync(work, { recursive: true });
  const acoustic = path.join(DEFAULT_MODEL_DIRECTORY, 'en-us');
  const dictionary = path.join(DEFAULT_MODEL_DIRECTORY, 'cmudict-en-us.dict');
  console.log(
    `adapt: ${voices.length} voices x ${rates.length} rates x ${TUNING_SENTENCES.length} tuning sentences, tau ${tau.wideband} (narrowband ${tau.narrowband}), in ${work}`,
  );

  // The model as bw reads it: text mdef, s3 mixture weights, the rest as shipped.
  const model = path.join(work, 'model');
  rmSync(model, { recursive: true, force: true });
  mkdirSync(model);
  for (const file of ['means', 'variances', 'transition_matrices', 'noisedict', 'feat.params'])
    symlinkSync(path.join(acoustic, file), path.join(model, file));
  const mdef = path.join(model, 'mdef.txt');
  run(mdefConvert, ['-text', path.join(acoustic, 'mdef'), mdef], path.join(work, 'mdef_convert.log'));
  writeFileSync(
    path.join(model, 'mixture_weights'),
    mixtureWeightsFile(readSendump(readFileSync(path.join(acoustic, 'sendump')))),
  );

  // 1. The audio, per profile.
  const audio = path.join(work, 'audio');
  mkdirSync(audio, { recursive: true });
  const utterances: Record<Bandwidth, { ids: string[]; transcripts: string[] }> = {
    wideband: { ids: [], transcripts: [] },
    narrowband: { ids: [], transcripts: [] },
  };
  for (const voice of voices) {
    for (const rate of rates) {
      TUNING_SENTENCES.forEach((sentence, index) => {
        const id = `${voice.name}-${rate}-${index}`;
        const spoken = synthesize(voice, sentence);
        const padding = Buffer.alloc(Math.round((rate * PADDING_MS) / 1000) * 2);
        const pcm = asReceived(Buffer.concat([padding, resample(spoken.pcm, spoken.sampleRate, rate), padding]), rate);
        let profile: Bandwidth = 'narrowband';
        if (rate === 16000) {
          const detector = new BandwidthDetector();
          profile = detector.feed(new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1)) ?? detector.verdict();
        }
        writeFileSync(path.join(audio, `${id}.raw`), pcm);
        utterances[profile].ids.push(id);
        utterances[profile].transcripts.push(`<s> ${transcriptWords(sentence)} </s> (${id})`);
      });
    }
    console.log(`adapt: ${voice.name} spoken (${rates.join(', ')} Hz)`);
  }

  // 2. Features.
  const all = [...utterances.wideband.ids, ...utterances.narrowband.ids];
  writeFileSync(path.join(work, 'all.fileids'), `${all.join('\n')}\n`);
  run(
    sphinxFe,
    [
      '-argfile',
      path.join(acoustic, 'feat.params'),
      '-samprate',
      '16000',
      '-c',
      path.join(work, 'all.fileids'),
      '-di',
      audio,
      '-do',
      audio,
      '-ei',
      'raw',
      '-eo',
      'mfc',
      '-raw',
      'yes',
    ],
    path.join(work, 'sphinx_fe.log'),
  );

  // 3-4. Counts and adapted model, per profile, into a new folder that replaces the old one when complete.
  const next = `${out}.${process.pid}.part`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  const adaptProfile = async (profile: Bandwidth): Promise<string | undefined> => {
    const { ids, transcripts } = utterances[profile];
    if (ids.length === 0) {
      console.log(`adapt: no ${profile} audio: that profile keeps the model as shipped`);
      return undefined;
    }
    const fileIds = path.join(work, `${profile}.fileids`);
    const transcription = path.join(work, `${profile}.transcription`);
    writeFileSync(fileIds, `${ids.join('\n')}\n`);
    writeFileSync(transcription, `${transcripts.join('\n')}\n`);
    const counts = path.join(work, `${profile}-counts`);
    rmSync(counts, { recursive: true, force: true });
    mkdirSync(counts);
    const bwLog = await runAsync(
      bw,
      [
        '-hmmdir',
        model,
        '-moddeffn',
        mdef,
        '-ts2cbfn',
        '.ptm.',
        '-feat',
        '1s_c_d_dd',
        '-svspec',
        '0-12/13-25/26-38',
        '-cmn',
        'current',
        '-agc',
        'none',
        '-dictfn',
        dictionary,
        '-fdictfn',
        path.join(model, 'noisedict'),
        '-ctlfn',
        fileIds,
        '-lsnfn',
        transcription,
        '-cepdir',
        audio,
        '-cepext',
        'mfc',
        '-abeam',
        BW_BEAM,
        '-bbeam',
        BW_BEAM,
        '-accumdir',
        counts,
      ],
      path.join(work, `${profile}-bw.log`),
    );
    const ignored = (bwLog.match(/ ignored\s*$/gm) ?? []).length;
    const adapted = path.join(next, profile);
    mkdirSync(adapted);
    const mixtureWeights = path.join(work, `${profile}-mixture_weights`);
    await runAsync(
      mapAdapt,
      [
        '-moddeffn',
        mdef,
        '-ts2cbfn',
        '.ptm.',
        '-meanfn',
        path.join(model, 'means'),
        '-varfn',
        path.join(model, 'variances'),
        '-mixwfn',
        path.join(model, 'mixture_weights'),
        '-tmatfn',
        path.join(model, 'transition_matrices'),
        '-accumdir',
        counts,
        '-bayesmean',
        'no',
        '-fixedtau',
        'yes',
        '-tau',
        String(tau[profile]),
        '-mapmeanfn',
        path.join(adapted, 'means'),
        '-mapvarfn',
        path.join(adapted, 'variances'),
        '-mapmixwfn',
        mixtureWeights,
        '-maptmatfn',
        path.join(adapted, 'transition_matrices'),
      ],
      path.join(work, `${profile}-map_adapt.log`),
    );
    await runAsync(
      sendumpTool,
      [
        '-pocketsphinx',
        'yes',
        '-moddeffn',
        mdef,
        '-mixwfn',
        mixtureWeights,
        '-sendumpfn',
        path.join(adapted, 'sendump'),
      ],
      path.join(work, `${profile}-mk_s2sendump.log`),
    );
    // The files adaptation does not change come from the installed model.
    for (const file of ['mdef', 'noisedict']) symlinkSync(path.join(acoustic, file), path.join(adapted, file));
    // The initial cepstral mean: the shipped one suits the model's own (real, wideband) training speech, and the
    // live mean keeps it for the whole first utterance of a stream, so a one-sentence session was decoded with a
    // mean far from its audio's. The mean of this profile's adaptation speech is where streams of it start.
    const cmnInit = speechCepstralMean(ids.map((id) => readFeatureFile(readFileSync(path.join(audio, `${id}.mfc`)))));
    writeFileSync(
      path.join(adapted, 'feat.params'),
      withCmnInit(readFileSync(path.join(acoustic, 'feat.params'), 'utf8'), cmnInit),
    );
    const line = `${profile}: ${ids.length} utterances, ${ids.length - ignored} aligned by bw (${ignored} not), from ${[...new Set(ids.map((id) => id.replace(/-\d+-\d+$/, '')))].length} voices; initial cepstral mean ${cmnInit.map((value) => value.toFixed(1)).join(',')}`;
    console.log(`adapt: ${line}`);
    return line;
  };
  // In the order of the profiles whatever finishes first, so SOURCES.txt reads the same every time.
  const summary = (await Promise.all((['wideband', 'narrowband'] as const).map(adaptProfile))).filter(
    (line): line is string => line !== undefined,
  );
  writeFileSync(
    path.join(next, 'SOURCES.txt'),
    [
      'Made by `npm run adapt -w voice-stream` (src/cli/adapt/adapt-cli.ts); docs/voice-stream/recognition.md, "Acoustic adaptation".',
      `Key: ${key}`,
      `Arguments: ${argv.length > 0 ? argv.join(' ') : '(defaults)'}`,
      `Sentences: the ${TUNING_SENTENCES.length} tuning sentences of src/cli/eval/eval-sentences.ts (never the evaluation ones)`,
      `Voices: ${voices.map((voice) => voice.name).join(', ')}`,
      `Rates: ${rates.join(', ')} Hz; MAP tau ${tau.wideband} (wideband), ${tau.narrowband} (narrowband)`,
      ...summary,
      'Packages:',
      ...versions.map((line) => `  ${line}`),
      '',
    ].join('\n'),
  );
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
  console.log(`adapt: ${out} (key ${key})`);
  if (!flags.work) rmSync(work, { recursive: true, force: true });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`adapt: ${(error as Error).message}`);
    process.exit(1);
  },
);
