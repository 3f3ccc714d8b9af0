import { formatMediaType, parseMediaType, type MediaType } from './media-type';

/** Raw PCM sample encodings accepted as source audio. */
export type PcmEncoding = 's16le' | 'alaw' | 'ulaw';

export interface RawPcmLayout {
  readonly encoding: PcmEncoding;
  readonly sampleRate: number;
  /** Bytes of one mono sample frame: chunks must hold whole frames. */
  readonly bytesPerFrame: number;
}

/** How the session's source audio is read. */
export interface SourceAudioFormat {
  /** Canonical spelling of the content type (no spaces, lower case). */
  readonly contentType: string;
  /** Present for raw PCM, whose chunk durations are exactly computable from their size. */
  readonly pcm?: RawPcmLayout;
  /**
   * ffmpeg options placed before `-i pipe:0` to name the input format; an empty list lets ffmpeg probe
   * (`audio/auto`). `null` means no decoding is needed (already PCM s16le 16 kHz mono).
   */
  readonly ffmpegInput: readonly string[] | null;
}

export type SourceFormatResult = { readonly format: SourceAudioFormat } | { readonly error: string };

/** Every container/codec combination of the real API's source enum, keyed by MIME essence. */
const CONTAINERS: Record<string, { codecs: readonly string[]; ffmpegInput: readonly string[] }> = {
  'audio/auto': { codecs: [], ffmpegInput: [] },
  'audio/flac': { codecs: [], ffmpegInput: ['-f', 'flac'] },
  'audio/mpeg': { codecs: [], ffmpegInput: ['-f', 'mp3'] },
  'audio/ogg': { codecs: ['flac', 'opus'], ffmpegInput: ['-f', 'ogg'] },
  // ffmpeg's matroska demuxer reads WebM too.
  'audio/webm': { codecs: ['opus'], ffmpegInput: ['-f', 'matroska'] },
  'audio/x-matroska': { codecs: ['aac', 'flac', 'mp3', 'opus'], ffmpegInput: ['-f', 'matroska'] },
};

const PCM_RATES: Record<PcmEncoding, readonly number[]> = {
  s16le: [8000, 16000, 44100, 48000],
  alaw: [8000],
  ulaw: [8000],
};

/** The rate the recogniser works at; s16le at this rate needs no decoder at all. */
export const RECOGNIZER_SAMPLE_RATE = 16000;

export const SUPPORTED_SOURCE_CONTENT_TYPES: readonly string[] = [
  ...Object.entries(CONTAINERS).flatMap(([essence, { codecs }]) => [
    essence,
    ...codecs.map((codec) => `${essence};codecs=${codec}`),
  ]),
  ...Object.entries(PCM_RATES).flatMap(([encoding, rates]) =>
    rates.map((rate) => `audio/pcm;encoding=${encoding};rate=${rate}`),
  ),
];

/** Resolves `source_media_content_type` to a decoding plan, or says exactly what is wrong with it. */
export function resolveSourceFormat(contentType: unknown): SourceFormatResult {
  if (typeof contentType !== 'string' || contentType.trim() === '') {
    return { error: 'source_media_content_type must be a MIME type string such as "audio/ogg;codecs=opus"' };
  }
  const type = parseMediaType(contentType);
  if (!type) return { error: `source_media_content_type "${contentType}" is not a valid MIME type` };
  if (type.essence === 'audio/pcm') return resolvePcm(type, contentType);
  const container = CONTAINERS[type.essence];
  if (!container) {
    return {
      error: `source_media_content_type "${contentType}" is not supported; supported: ${SUPPORTED_SOURCE_CONTENT_TYPES.join(', ')}`,
    };
  }
  const unknown = Object.keys(type.parameters).filter((name) => name !== 'codecs');
  if (unknown.length > 0)
    return { error: `source_media_content_type "${contentType}" has unsupported parameter(s): ${unknown.join(', ')}` };
  const codec = type.parameters.codecs;
  if (codec !== undefined && !container.codecs.includes(codec)) {
    const allowed = container.codecs.length ? container.codecs.join(', ') : 'none';
    return { error: `codec "${codec}" is not supported in ${type.essence} (supported codecs: ${allowed})` };
  }
  return { format: { contentType: formatMediaType(type, ['codecs']), ffmpegInput: container.ffmpegInput } };
}

function resolvePcm(type: MediaType, original: string): SourceFormatResult {
  const unknown = Object.keys(type.parameters).filter((name) => name !== 'encoding' && name !== 'rate');
  if (unknown.length > 0)
    return { error: `source_media_content_type "${original}" has unsupported parameter(s): ${unknown.join(', ')}` };
  const encoding = type.parameters.encoding as PcmEncoding | undefined;
  if (!encoding || !(encoding in PCM_RATES)) {
    return { error: `audio/pcm needs encoding=s16le, alaw or ulaw (got ${encoding ?? 'none'})` };
  }
  const rate = Number(type.parameters.rate);
  if (!PCM_RATES[encoding].includes(rate)) {
    return {
      error: `audio/pcm;encoding=${encoding} needs rate=${PCM_RATES[encoding].join('|')} (got ${type.parameters.rate ?? 'none'})`,
    };
  }
  const bytesPerFrame = encoding === 's16le' ? 2 : 1;
  const contentType = `audio/pcm;encoding=${encoding};rate=${rate}`;
  const pcm: RawPcmLayout = { encoding, sampleRate: rate, bytesPerFrame };
  if (encoding === 's16le' && rate === RECOGNIZER_SAMPLE_RATE)
    return { format: { contentType, pcm, ffmpegInput: null } };
  const demuxer = encoding === 's16le' ? 's16le' : encoding === 'alaw' ? 'alaw' : 'mulaw';
  return { format: { contentType, pcm, ffmpegInput: ['-f', demuxer, '-ar', String(rate), '-ac', '1'] } };
}

/** Playback time of a raw PCM chunk, in milliseconds. */
export function pcmDurationMs(layout: RawPcmLayout, byteLength: number): number {
  return (byteLength / layout.bytesPerFrame / layout.sampleRate) * 1000;
}
