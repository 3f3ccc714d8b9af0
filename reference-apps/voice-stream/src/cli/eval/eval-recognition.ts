import type { VoiceEngines } from '../../engines/voice-engines';
import { resolveSourceFormat } from '../../domain/media/source-formats';

/** Bytes per write: about 100 ms of 16 kHz PCM, what a client's chunk would be. */
const WRITE_BYTES = 3200;

/**
 * Runs a session's audio through the server's own decoder and recogniser (as a session would, without the
 * WebSocket) and returns the concluded text. Pacing does not change the result (the recogniser works on the
 * audio's own 10 ms frames), so the audio is written as fast as it is taken.
 */
export async function recognizeAudio(
  engines: Pick<VoiceEngines, 'decoder' | 'recognizer'>,
  bytes: Buffer,
  contentType: string,
): Promise<string> {
  const resolved = resolveSourceFormat(contentType);
  if ('error' in resolved) throw new Error(resolved.error);
  const format = resolved.format;
  const concluded: string[] = [];
  let failure: Error | undefined;
  const recognition = engines.recognizer.start(
    {
      onTentative: () => undefined,
      onConcluded: (segment) => concluded.push(segment.text),
      onError: (error) => (failure ??= error),
    },
    { sourceSampleRate: format.pcm?.sampleRate },
  );
  const decoder = engines.decoder.create(format, engines.recognizer.sampleRate, {
    onPcm: (pcm) => recognition.write(pcm),
    onError: (error) => (failure ??= error),
  });
  try {
    for (let offset = 0; offset < bytes.length; offset += WRITE_BYTES)
      decoder.write(bytes.subarray(offset, offset + WRITE_BYTES));
    await decoder.end();
    await recognition.end();
  } finally {
    decoder.close();
    recognition.close();
  }
  if (failure) throw failure;
  return concluded.join(' ');
}
