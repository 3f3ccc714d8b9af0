import type { ApiMessagesOptions } from 'rest.uws';

/**
 * The stream's messages as the AsyncAPI document declares them: DeepL's message names, the JSON form of each (binary
 * fields are base64 strings; the MessagePack form carries raw bytes there). The field sets follow messages.ts.
 */
const segment = (withLanguage: boolean) => ({
  type: 'object',
  properties: {
    text: { type: 'string' },
    start_time: { type: 'integer', description: 'Milliseconds from the start of the input stream' },
    end_time: { type: 'integer' },
    ...(withLanguage ? { language: { type: 'string', description: 'IETF BCP 47 tag of the source language' } } : {}),
  },
  required: withLanguage ? ['text', 'start_time', 'end_time', 'language'] : ['text', 'start_time', 'end_time'],
});

const single = (key: string, inner: Record<string, unknown>) => ({
  type: 'object',
  properties: { [key]: inner },
  required: [key],
});

const empty = { type: 'object', description: 'An empty object' };
const withLanguage = { type: 'object', properties: { language: { type: 'string' } }, required: ['language'] };

export const STREAM_MESSAGES: ApiMessagesOptions = {
  description:
    'Audio in, transcripts and translations out: JSON in text frames, or MessagePack in binary frames (the ' +
    "session's message_format). Close codes: 1000 after end_of_stream, 4000 + the error's status after an error.",
  receive: {
    SourceMediaChunk: {
      title: 'Source Media Chunk',
      schema: single('source_media_chunk', {
        type: 'object',
        properties: { data: { type: 'string', format: 'binary', description: 'Audio, base64 in JSON' } },
        required: ['data'],
      }),
    },
    EndOfSourceMedia: { title: 'End of Source Media', schema: single('end_of_source_media', empty) },
  },
  send: {
    SourceTranscriptUpdate: {
      title: 'Source Transcript Update',
      schema: single('source_transcript_update', {
        type: 'object',
        properties: {
          concluded: { type: 'array', items: segment(true) },
          tentative: { type: 'array', items: segment(true) },
        },
        required: ['concluded', 'tentative'],
      }),
    },
    TargetTranscriptUpdate: {
      title: 'Target Transcript Update',
      schema: single('target_transcript_update', {
        type: 'object',
        properties: {
          language: { type: 'string' },
          concluded: { type: 'array', items: segment(false) },
          tentative: { type: 'array', items: segment(false) },
        },
        required: ['language', 'concluded', 'tentative'],
      }),
    },
    TargetMediaChunk: {
      title: 'Target Media Chunk',
      schema: single('target_media_chunk', {
        type: 'object',
        properties: {
          language: { type: 'string' },
          data: { type: 'array', items: { type: 'string', format: 'binary' } },
          duration: { type: 'integer' },
          content_type: { type: 'string' },
          headers: { type: 'integer' },
          text: { type: 'string', description: 'Only in the first chunk of a segment' },
        },
        required: ['language', 'data', 'duration'],
      }),
    },
    EndOfSourceTranscript: { title: 'End of Source Transcript', schema: single('end_of_source_transcript', empty) },
    EndOfTargetTranscript: {
      title: 'End of Target Transcript',
      schema: single('end_of_target_transcript', withLanguage),
    },
    EndOfTargetMedia: { title: 'End of Target Media', schema: single('end_of_target_media', withLanguage) },
    EndOfStream: { title: 'End of Stream', schema: single('end_of_stream', empty) },
    Error: {
      title: 'Error',
      schema: single('error', {
        type: 'object',
        properties: {
          request_type: { type: 'string' },
          error_code: { type: 'integer' },
          reason_code: { type: 'integer' },
          error_message: { type: 'string' },
        },
        required: ['request_type', 'error_code', 'reason_code', 'error_message'],
      }),
    },
  },
};
