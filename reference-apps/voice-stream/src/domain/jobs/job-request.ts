import { resolveSourceFormat, type SourceAudioFormat } from '../media/source-formats';
import { resolveTargetFormat, type TargetAudioFormat } from '../media/target-formats';
import type { VoiceCapabilities } from '../session/session-request';

/** The create request of a job, as DeepL's `CreateJobRequest` has it (and as the status answer repeats it). */
export interface JobRequest {
  readonly source_file: { readonly name: string; readonly content_type: string; readonly content_length: number };
  readonly parameters: { readonly source_language?: string };
  readonly targets: ReadonlyArray<{ readonly language: string; readonly type: string }>;
}

/** Plain text: the transcript when the language is the source's, else its translation. */
export const TEXT_TYPE = 'text/plain';
/** SubRip subtitles with the source's timecodes (an extension: DeepL's job API has no subtitle type). */
export const SUBRIP_TYPE = 'application/x-subrip';

/** What a target produces. */
export type JobOutput =
  | { readonly kind: 'text'; readonly language: string; readonly contentType: string }
  | { readonly kind: 'subrip'; readonly language: string; readonly contentType: string }
  | {
      readonly kind: 'audio';
      readonly language: string;
      readonly contentType: string;
      readonly format: TargetAudioFormat;
    };

/** The source file as the worker reads it. */
export interface JobSource {
  readonly format: SourceAudioFormat;
  readonly language: string;
}

/** Limits of the job API (server options). */
export interface JobLimits {
  /** Largest source file in bytes. */
  readonly maxFileBytes: number;
  /** Longest source audio in milliseconds. */
  readonly maxDurationMs: number;
  /** Jobs of one API key not yet finished (awaiting upload, queued, processing). */
  readonly maxActiveJobsPerKey: number;
  /** Targets of one job. */
  readonly maxTargets: number;
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  maxFileBytes: 1024 ** 3,
  maxDurationMs: 3 * 60 * 60 * 1000,
  maxActiveJobsPerKey: 10,
  maxTargets: 10,
};

/** DeepL's `SourceContentType` enum (`audio/wav` and `audio/mp4` are read by probing the file). */
const DEEPL_SOURCE_TYPES: Record<string, readonly string[]> = {
  'audio/wav': ['-f', 'wav'],
  'audio/mp4': ['-f', 'mp4'],
};

export type JobRequestResult =
  | { readonly request: JobRequest; readonly source: JobSource; readonly outputs: readonly JobOutput[] }
  | { readonly error: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The source format of a content type: DeepL's job enum, and every type the stream takes. */
export function jobSourceFormat(contentType: string): SourceAudioFormat | { error: string } {
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const deepl = DEEPL_SOURCE_TYPES[essence];
  if (deepl) return { contentType: essence, ffmpegInput: deepl };
  const resolved = resolveSourceFormat(contentType);
  if ('error' in resolved)
    return { error: resolved.error.replace('source_media_content_type', '/source_file/content_type') };
  return resolved.format;
}

/** The output of one target, or what is wrong with it. */
function outputOf(
  target: unknown,
  index: number,
  source: string,
  capabilities: VoiceCapabilities,
): JobOutput | { error: string } {
  const where = `/targets/${index}`;
  if (!isObject(target)) return { error: `${where}: must be an object with language and type` };
  const unknown = Object.keys(target).filter((name) => name !== 'language' && name !== 'type');
  if (unknown.length > 0) return { error: `${where}: unknown field(s) ${unknown.join(', ')}` };
  const { language, type } = target;
  if (typeof language !== 'string' || language === '') return { error: `${where}/language: must be a language code` };
  if (typeof type !== 'string' || type === '') return { error: `${where}/type: must be an output type` };
  const translatable = capabilities.targetsFor(source);
  const lower = language.toLowerCase();
  const canonical = lower === source ? source : translatable.find((candidate) => candidate.toLowerCase() === lower);
  if (canonical === undefined)
    return {
      error: `${where}/language: "${language}" is not served from ${source}; served: ${[source, ...translatable].join(', ')}`,
    };
  const lowerType = type.replace(/\s+/g, '').toLowerCase();
  if (lowerType === TEXT_TYPE || lowerType === 'text/plain;charset=utf-8')
    return { kind: 'text', language: canonical, contentType: 'text/plain; charset=utf-8' };
  if (lowerType === SUBRIP_TYPE)
    return { kind: 'subrip', language: canonical, contentType: 'application/x-subrip; charset=utf-8' };
  const audio = resolveTargetFormat(type);
  if ('error' in audio)
    return {
      error: `${where}/type: ${audio.error.replace('target_media_content_type', 'type')}, or ${TEXT_TYPE}, ${SUBRIP_TYPE}`,
    };
  if (!capabilities.mediaLanguages.includes(canonical))
    return {
      error: `${where}: no speech for "${canonical}"; audio targets may be ${capabilities.mediaLanguages.join(', ')}`,
    };
  return { kind: 'audio', language: canonical, contentType: audio.format.contentType, format: audio.format };
}

/**
 * Checks a create request the way DeepL's schema does (`/path: what is wrong`), against what this server serves and
 * its limits; returns the request as stored (canonical spellings) with the plan of its outputs.
 */
export function parseJobRequest(body: unknown, capabilities: VoiceCapabilities, limits: JobLimits): JobRequestResult {
  if (!isObject(body)) return { error: 'The request body must be a JSON object with source_file and targets' };
  const unknown = Object.keys(body).filter((name) => !['source_file', 'parameters', 'targets'].includes(name));
  if (unknown.length > 0) return { error: `Unknown field(s): ${unknown.join(', ')}` };
  const file = body.source_file;
  if (!isObject(file)) return { error: '/source_file: required, an object with name, content_type, content_length' };
  const unknownFile = Object.keys(file).filter((name) => !['name', 'content_type', 'content_length'].includes(name));
  if (unknownFile.length > 0) return { error: `/source_file: unknown field(s) ${unknownFile.join(', ')}` };
  if (typeof file.name !== 'string' || file.name.length === 0 || file.name.length > 255)
    return { error: '/source_file/name: must be a file name of 1 to 255 characters' };
  if (typeof file.content_type !== 'string') return { error: '/source_file/content_type: must be a MIME type' };
  const format = jobSourceFormat(file.content_type);
  if ('error' in format) return { error: format.error };
  const length = file.content_length;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 1)
    return { error: '/source_file/content_length: must be the size of the file in bytes (at least 1)' };
  if (length > limits.maxFileBytes)
    return {
      error: `/source_file/content_length: ${length} bytes is over this server's limit of ${limits.maxFileBytes} bytes`,
    };
  const parameters = body.parameters ?? {};
  if (!isObject(parameters)) return { error: '/parameters: must be an object' };
  const unknownParameters = Object.keys(parameters).filter((name) => name !== 'source_language');
  if (unknownParameters.length > 0) return { error: `/parameters: unknown field(s) ${unknownParameters.join(', ')}` };
  const sources = capabilities.sourceLanguages;
  let language = sources[0];
  if (parameters.source_language !== undefined) {
    const given = parameters.source_language;
    const found =
      typeof given === 'string'
        ? sources.find((candidate) => candidate.toLowerCase() === given.toLowerCase())
        : undefined;
    if (found === undefined)
      return { error: `/parameters/source_language: must be one of ${sources.join(', ')} (the languages recognised)` };
    language = found;
  }
  const targets = body.targets;
  if (!Array.isArray(targets) || targets.length === 0) return { error: '/targets: required, at least one target' };
  if (targets.length > limits.maxTargets)
    return { error: `/targets: ${targets.length} targets; at most ${limits.maxTargets} per job` };
  const outputs: JobOutput[] = [];
  for (const [index, target] of targets.entries()) {
    const output = outputOf(target, index, language, capabilities);
    if ('error' in output) return { error: output.error };
    outputs.push(output);
  }
  return {
    request: {
      source_file: { name: file.name, content_type: format.contentType, content_length: length },
      parameters: parameters.source_language === undefined ? {} : { source_language: language },
      targets: outputs.map((output) => ({
        language: output.language,
        type: output.kind === 'audio' ? output.contentType : output.kind === 'text' ? TEXT_TYPE : SUBRIP_TYPE,
      })),
    },
    source: { format, language },
    outputs,
  };
}
