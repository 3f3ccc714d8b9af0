/** Message shapes of the stream, field names exactly as the spec's. */

export interface SourceSegment {
  readonly text: string;
  readonly start_time: number;
  readonly end_time: number;
  readonly language: string;
}

export interface TargetSegment {
  readonly text: string;
  readonly start_time: number;
  readonly end_time: number;
}

export interface TargetMediaChunk {
  readonly language: string;
  readonly data: Buffer[];
  readonly duration: number;
  readonly content_type?: string;
  readonly headers?: number;
  /** Only in the first chunk of a segment (absent, never null, in the others). */
  readonly text?: string;
}

export interface ErrorPayload {
  readonly request_type: string;
  readonly error_code: number;
  readonly reason_code: number;
  readonly error_message: string;
}

export type ServerMessage =
  | { readonly source_transcript_update: { readonly concluded: SourceSegment[]; readonly tentative: SourceSegment[] } }
  | {
      readonly target_transcript_update: {
        readonly language: string;
        readonly concluded: TargetSegment[];
        readonly tentative: TargetSegment[];
      };
    }
  | { readonly target_media_chunk: TargetMediaChunk }
  | { readonly end_of_source_transcript: Record<string, never> }
  | { readonly end_of_target_transcript: { readonly language: string } }
  | { readonly end_of_target_media: { readonly language: string } }
  | { readonly end_of_stream: Record<string, never> }
  | { readonly error: ErrorPayload };

export type ClientMessage =
  | { readonly source_media_chunk: { readonly data: Buffer } }
  | { readonly end_of_source_media: Record<string, never> };

export const CLIENT_MESSAGE_KINDS = ['source_media_chunk', 'end_of_source_media'] as const;
export const SERVER_MESSAGE_KINDS = [
  'source_transcript_update',
  'target_transcript_update',
  'target_media_chunk',
  'end_of_source_transcript',
  'end_of_target_transcript',
  'end_of_target_media',
  'end_of_stream',
  'error',
] as const;

/** The kind (single top-level key) of a message. */
export function messageKind(message: ServerMessage | ClientMessage): string {
  return Object.keys(message)[0];
}
