/**
 * `reason_code` values of the `error` message. The spec documents one (4000403, unsupported audio format);
 * the others follow its visible pattern: HTTP status x 10000 + a four-digit detail. Listed in
 * docs/voice-stream/protocol.md.
 */
export interface ReasonCode {
  readonly errorCode: number;
  readonly reasonCode: number;
  readonly meaning: string;
}

function reason(errorCode: number, reasonCode: number, meaning: string): ReasonCode {
  return { errorCode, reasonCode, meaning };
}

export const Reasons = {
  // Protocol (how the message was sent)
  invalidMessage: reason(400, 4000101, 'The frame is not a valid JSON / MessagePack message'),
  wrongFrameType: reason(400, 4000102, 'TEXT frame in a MessagePack session, or BINARY frame in a JSON session'),
  unknownMessageKind: reason(400, 4000103, 'The message kind is not one a client may send'),
  invalidEnvelope: reason(400, 4000104, 'The message is not an object with exactly one key whose value is an object'),
  nonMapMessagePack: reason(400, 4000105, 'MessagePack array/record-based or non-string-keyed encoding'),
  invalidAudioField: reason(
    400,
    4000106,
    'source_media_chunk.data is missing, empty, not base64 (JSON) or not binary (MessagePack)',
  ),
  messageAfterEnd: reason(400, 4000107, 'A message arrived after end_of_source_media'),
  // Audio (what the chunk contains)
  chunkTooLarge: reason(400, 4000401, 'source_media_chunk.data is larger than 100 kB'),
  chunkTooLong: reason(400, 4000402, 'source_media_chunk holds more than 1 s of audio'),
  unsupportedAudioFormat: reason(400, 4000403, 'The audio is not in the format declared by source_media_content_type'),
  partialPcmFrame: reason(400, 4000404, 'A PCM chunk is not a whole number of sample frames'),
  // Pacing and time limits
  noAudioTimeout: reason(408, 4080401, 'No source_media_chunk for 30 s'),
  connectionTimeLimit: reason(408, 4080402, 'The connection reached its maximum duration of 1 hour'),
  chunkTooSoon: reason(429, 4290401, "A chunk arrived sooner than half the previous chunk's duration"),
  audioAheadOfRealTime: reason(429, 4290402, 'Compressed audio arrives faster than twice real time'),
  tooManyMessages: reason(429, 4290403, 'More messages per second than the session accepts (200 by default)'),
  // Server side
  recognitionFailed: reason(500, 5000001, 'The speech recogniser failed'),
  translationFailed: reason(500, 5000002, 'Translation failed'),
  synthesisFailed: reason(500, 5000003, 'Speech synthesis or target audio encoding failed'),
  decoderFailed: reason(500, 5000004, 'The source audio decoder stopped (killed, crashed or not installed)'),
} as const;

export type ReasonName = keyof typeof Reasons;
