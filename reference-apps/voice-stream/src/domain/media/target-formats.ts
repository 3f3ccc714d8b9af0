import { FlacFrameReader } from '../../engines/containers/flac-frame-reader';
import { MatroskaClusterReader } from '../../engines/containers/matroska-cluster-reader';
import type { MediaUnitReader } from '../../engines/containers/media-unit';
import { MpegTsReader } from '../../engines/containers/mpeg-ts-reader';
import { OggPageReader } from '../../engines/containers/ogg-page-reader';
import { OpusPacketReader } from '../../engines/containers/opus-packet-reader';
import { PcmUnitReader } from '../../engines/containers/pcm-unit-reader';
import { parseMediaType } from './media-type';

export type TargetCodec = 'opus' | 'flac' | 'aac' | 's16le' | 'alaw' | 'ulaw';

/** How synthesized speech is encoded for `target_media_chunk`. */
export interface TargetAudioFormat {
  /** Sent as `content_type` in the first target_media_chunk. */
  readonly contentType: string;
  readonly codec: TargetCodec;
  readonly sampleRate: number;
  /** ffmpeg output options (codec, rate, muxer) for a long-running encoder fed PCM on stdin. */
  readonly ffmpegOutput: readonly string[];
  /** Splits the encoder's output into indivisible units. */
  createReader(): MediaUnitReader;
}

export type TargetFormatResult = { readonly format: TargetAudioFormat } | { readonly error: string };

export const DEFAULT_TARGET_CONTENT_TYPE = 'audio/webm;codecs=opus';

const OPUS = ['-c:a', 'libopus', '-b:a', '32k', '-frame_duration', '20', '-ar', '48000'];
const FLAC = ['-c:a', 'flac', '-sample_fmt', 's16', '-frame_size', '1152', '-ar', '24000'];
// The bitrates of DeepL's table: Opus 32 kbit/s, AAC 70 kbit/s.
const AAC = ['-c:a', 'aac', '-b:a', '70k', '-ar', '24000'];
// Small clusters/pages keep latency low and make segment boundaries sharp.
const WEBM = ['-cluster_time_limit', '100', '-cluster_size_limit', '4096', '-live', '1'];
const OGG = ['-f', 'ogg', '-page_duration', '20000'];
// One codec frame per PES (no payload gathering): each unit is one frame, sent as soon as it is encoded.
const MPEG_TS = ['-f', 'mpegts', '-pes_payload_size', '0'];

const CODEC_ARGS: Record<'opus' | 'flac' | 'aac', readonly string[]> = { opus: OPUS, flac: FLAC, aac: AAC };
const CODEC_RATES: Record<'opus' | 'flac' | 'aac', number> = { opus: 48000, flac: 24000, aac: 24000 };

function containerFormat(
  contentType: string,
  codec: 'opus' | 'flac' | 'aac',
  muxer: readonly string[],
  reader: () => MediaUnitReader,
): TargetAudioFormat {
  return {
    contentType,
    codec,
    sampleRate: CODEC_RATES[codec],
    ffmpegOutput: [...CODEC_ARGS[codec], ...muxer],
    createReader: reader,
  };
}

function pcmFormat(encoding: 's16le' | 'alaw' | 'ulaw', rate: number): TargetAudioFormat {
  const muxer = encoding === 's16le' ? 's16le' : encoding === 'alaw' ? 'alaw' : 'mulaw';
  const bytesPerFrame = encoding === 's16le' ? 2 : 1;
  return {
    contentType: `audio/pcm;encoding=${encoding};rate=${rate}`,
    codec: encoding,
    sampleRate: rate,
    ffmpegOutput: [
      '-c:a',
      encoding === 's16le' ? 'pcm_s16le' : encoding === 'alaw' ? 'pcm_alaw' : 'pcm_mulaw',
      '-ar',
      String(rate),
      '-f',
      muxer,
    ],
    createReader: () => new PcmUnitReader(rate, bytesPerFrame),
  };
}

/** Every supported target content type, canonical spelling -> format. */
const FORMATS: Record<string, () => TargetAudioFormat> = {
  'audio/webm': () =>
    containerFormat('audio/webm;codecs=opus', 'opus', ['-f', 'webm', ...WEBM], () => new MatroskaClusterReader()),
  'audio/webm;codecs=opus': () =>
    containerFormat('audio/webm;codecs=opus', 'opus', ['-f', 'webm', ...WEBM], () => new MatroskaClusterReader()),
  'audio/x-matroska;codecs=opus': () =>
    containerFormat(
      'audio/x-matroska;codecs=opus',
      'opus',
      ['-f', 'matroska', ...WEBM],
      () => new MatroskaClusterReader(),
    ),
  'audio/x-matroska;codecs=flac': () =>
    containerFormat(
      'audio/x-matroska;codecs=flac',
      'flac',
      ['-f', 'matroska', ...WEBM],
      () => new MatroskaClusterReader(),
    ),
  'audio/x-matroska;codecs=aac': () =>
    containerFormat(
      'audio/x-matroska;codecs=aac',
      'aac',
      ['-f', 'matroska', ...WEBM],
      () => new MatroskaClusterReader(),
    ),
  'video/mp2t;codecs=aac': () => containerFormat('video/mp2t;codecs=aac', 'aac', MPEG_TS, () => new MpegTsReader()),
  'video/mp2t;codecs=opus': () => containerFormat('video/mp2t;codecs=opus', 'opus', MPEG_TS, () => new MpegTsReader()),
  'audio/ogg': () => containerFormat('audio/ogg;codecs=opus', 'opus', OGG, () => new OggPageReader()),
  'audio/ogg;codecs=opus': () => containerFormat('audio/ogg;codecs=opus', 'opus', OGG, () => new OggPageReader()),
  'audio/ogg;codecs=flac': () => containerFormat('audio/ogg;codecs=flac', 'flac', OGG, () => new OggPageReader()),
  'audio/opus': () => containerFormat('audio/opus', 'opus', OGG, () => new OpusPacketReader()),
  'audio/flac': () => containerFormat('audio/flac', 'flac', OGG, () => new FlacFrameReader()),
  'audio/pcm;encoding=s16le;rate=16000': () => pcmFormat('s16le', 16000),
  'audio/pcm;encoding=s16le;rate=24000': () => pcmFormat('s16le', 24000),
  'audio/pcm;encoding=alaw;rate=8000': () => pcmFormat('alaw', 8000),
  'audio/pcm;encoding=ulaw;rate=8000': () => pcmFormat('ulaw', 8000),
};

export const SUPPORTED_TARGET_CONTENT_TYPES: readonly string[] = Object.keys(FORMATS);

/** Resolves `target_media_content_type` (tolerant spelling) or says exactly what is wrong with it. */
export function resolveTargetFormat(contentType: unknown): TargetFormatResult {
  if (contentType === undefined || contentType === null) contentType = DEFAULT_TARGET_CONTENT_TYPE;
  if (typeof contentType !== 'string' || contentType.trim() === '') {
    return { error: 'target_media_content_type must be a MIME type string such as "audio/webm;codecs=opus"' };
  }
  const type = parseMediaType(contentType);
  if (!type) return { error: `target_media_content_type "${contentType}" is not a valid MIME type` };
  const order = type.essence === 'audio/pcm' ? ['encoding', 'rate'] : ['codecs'];
  const extra = Object.keys(type.parameters).filter((name) => !order.includes(name));
  if (extra.length > 0)
    return { error: `target_media_content_type "${contentType}" has unsupported parameter(s): ${extra.join(', ')}` };
  const canonical = [
    type.essence,
    ...order.filter((name) => type.parameters[name] !== undefined).map((name) => `${name}=${type.parameters[name]}`),
  ].join(';');
  const factory = FORMATS[canonical];
  if (!factory) {
    const hint =
      type.essence === 'video/mp2t' && type.parameters.codecs === undefined
        ? ' (name the codec: video/mp2t;codecs=aac or video/mp2t;codecs=opus)'
        : '';
    return {
      error: `target_media_content_type "${contentType}" is not supported${hint}; supported: ${SUPPORTED_TARGET_CONTENT_TYPES.join(', ')}`,
    };
  }
  return { format: factory() };
}
