/**
 * Conversions between PocketSphinx's model files and the files sphinxtrain's adaptation tools read.
 *
 * Debian's `pocketsphinx-en-us` ships the senones' mixture weights only as `sendump` (8-bit quantised negative
 * log weights, PocketSphinx's compact form), while sphinxtrain's `bw` reads the s3 `mixture_weights` file. The
 * CMU tutorial ("Adapting the default acoustic model") takes that file from the full model on SourceForge; here it
 * is rebuilt from `sendump` (the inverse of sphinxtrain's `mk_s2sendump`, as its `python/cmusphinx/sendump.py`
 * does), so adaptation needs nothing outside Debian's packages.
 */

/** sendump's weights are -log base 1.0001 of the probability, shifted right by this many bits. */
const DEFAULT_MIXW_SHIFT = 10;

export interface MixtureWeights {
  readonly senones: number;
  readonly features: number;
  readonly densities: number;
  /** Probabilities, [senone][feature][density], each senone's weights per feature summing to 1. */
  readonly weights: Float32Array;
}

/**
 * Reads a `sendump` file (ptm_mgau.c's `read_sendump` layout: length-prefixed title and header strings ending
 * with an empty one, then #codewords and #senones, then per feature, per codeword, one byte per senone).
 */
export function readSendump(bytes: Buffer): MixtureWeights {
  let offset = 0;
  const int32 = () => {
    if (offset + 4 > bytes.length) throw new Error('sendump: truncated header');
    const value = bytes.readInt32LE(offset);
    offset += 4;
    return value;
  };
  const string = () => {
    const length = int32();
    if (length < 0 || length > 65536)
      throw new Error(`sendump: bad string length ${length} (not a little-endian sendump)`);
    if (length === 0) return undefined;
    const text = bytes.toString('latin1', offset, offset + length - 1);
    offset += length;
    return text;
  };
  string(); // title
  const header = new Map<string, string>();
  for (let line = string(); line !== undefined; line = string()) {
    const [key, value] = line.trim().split(/\s+/);
    if (value !== undefined) header.set(key, value);
  }
  const features = Number(header.get('feature_count') ?? 1);
  const shift = Number(header.get('mixw_shift') ?? DEFAULT_MIXW_SHIFT);
  if (Number(header.get('cluster_count') ?? 0) !== 0)
    throw new Error('sendump: clustered (cluster_count > 0) weights are not supported');
  const densities = int32();
  const senones = int32();
  if (bytes.length - offset !== features * densities * senones) {
    throw new Error(
      `sendump: ${bytes.length - offset} bytes of weights, expected ${features} x ${densities} x ${senones}`,
    );
  }
  const weights = new Float32Array(senones * features * densities);
  for (let feature = 0; feature < features; feature += 1) {
    for (let density = 0; density < densities; density += 1) {
      for (let senone = 0; senone < senones; senone += 1) {
        weights[(senone * features + feature) * densities + density] = 1.0001 ** -(bytes[offset++] << shift);
      }
    }
  }
  // Quantisation leaves sums slightly off 1; bw expects distributions.
  for (let row = 0; row < senones * features; row += 1) {
    let sum = 0;
    for (let density = 0; density < densities; density += 1) sum += weights[row * densities + density];
    for (let density = 0; density < densities; density += 1) weights[row * densities + density] /= sum;
  }
  return { senones, features, densities, weights };
}

/** The s3 binary `mixture_weights` file sphinxtrain reads (s3io: text header, byte-order word, dimensions, floats; no checksum). */
export function mixtureWeightsFile(mixture: MixtureWeights): Buffer {
  let header = 's3\nversion 1.0\n';
  // The binary part starts on a 4-byte boundary (as sphinxtrain's writers align it).
  const misalignment = (header.length + 'endhdr\n'.length) & 3;
  header += `${' '.repeat(misalignment === 0 ? 0 : 4 - misalignment)}endhdr\n`;
  const fields = Buffer.alloc(20);
  fields.writeUInt32LE(0x11223344, 0);
  fields.writeUInt32LE(mixture.senones, 4);
  fields.writeUInt32LE(mixture.features, 8);
  fields.writeUInt32LE(mixture.densities, 12);
  fields.writeUInt32LE(mixture.weights.length, 16);
  const data = Buffer.from(mixture.weights.buffer, mixture.weights.byteOffset, mixture.weights.byteLength);
  return Buffer.concat([Buffer.from(header, 'latin1'), fields, data]);
}

/**
 * The frames of a Sphinx feature file (`sphinx_fe -eo mfc`): a 32-bit count of the floats that follow, then the
 * cepstra, `size` per frame. The byte order is the one under which the count matches the file's length.
 */
export function readFeatureFile(bytes: Buffer, size = 13): Float32Array[] {
  const little = bytes.readInt32LE(0);
  const endian = little * 4 + 4 === bytes.length ? 'LE' : bytes.readInt32BE(0) * 4 + 4 === bytes.length ? 'BE' : null;
  if (endian === null) throw new Error('not a Sphinx feature file: its count does not match its length');
  const count = endian === 'LE' ? little : bytes.readInt32BE(0);
  const frames: Float32Array[] = [];
  for (let frame = 0; frame + size <= count; frame += size) {
    const values = new Float32Array(size);
    for (let index = 0; index < size; index += 1) {
      const offset = 4 + (frame + index) * 4;
      values[index] = endian === 'LE' ? bytes.readFloatLE(offset) : bytes.readFloatBE(offset);
    }
    frames.push(values);
  }
  return frames;
}

/**
 * The mean cepstrum of the speech in `utterances` (each a list of frames): in each utterance, the frames whose
 * energy (c0) is above the midpoint of its 10th and 90th percentile, so the silence around the words does not
 * pull the mean down. This is what PocketSphinx's live cepstral mean normalisation should start from
 * (`-cmninit`): it keeps the initial mean for the whole first utterance of a stream.
 */
export function speechCepstralMean(utterances: readonly (readonly Float32Array[])[]): number[] {
  const size = utterances.find((frames) => frames.length > 0)?.[0].length ?? 13;
  const sum = new Array<number>(size).fill(0);
  let count = 0;
  for (const frames of utterances) {
    if (frames.length === 0) continue;
    const energies = frames.map((frame) => frame[0]).sort((a, b) => a - b);
    const at = (share: number) => energies[Math.min(energies.length - 1, Math.floor(share * energies.length))];
    const threshold = (at(0.1) + at(0.9)) / 2;
    for (const frame of frames) {
      if (frame[0] < threshold) continue;
      for (let index = 0; index < size; index += 1) sum[index] += frame[index];
      count += 1;
    }
  }
  if (count === 0) throw new Error('no speech frames to measure a cepstral mean on');
  return sum.map((value) => value / count);
}

/** `feat.params` text with its `-cmninit` set to `mean` (added when it has none). */
export function withCmnInit(featParams: string, mean: readonly number[]): string {
  const value = mean.map((item) => item.toFixed(2)).join(',');
  return /^-cmninit .*$/m.test(featParams)
    ? featParams.replace(/^-cmninit .*$/m, `-cmninit ${value}`)
    : `${featParams.trimEnd()}\n-cmninit ${value}\n`;
}
