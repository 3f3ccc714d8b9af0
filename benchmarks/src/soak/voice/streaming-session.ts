/**
 * One voice-stream session as a live client runs it, with the `ws` package: the session request, the
 * WebSocket, speech sent in 100 ms chunks each when its 100 ms have passed (real-time pace), end of audio,
 * then every message until the server closes. The outcome says whether the session went as the API promises
 * (no error message, every end message, close 1000, something recognised and translated, audio when asked).
 */
import WebSocket from 'ws';
import type { Speech } from './speech';

export interface SessionPlan {
  baseUrl: string;
  apiKey: string;
  targetLanguages: string[];
  /** Spoken target language, or undefined for transcripts only. */
  mediaLanguage?: string;
  speech: Speech;
  chunkMs: number;
  /** Longest a session may take beyond its audio before it counts as failed. */
  graceMs: number;
}

export interface SessionOutcome {
  failure?: string;
  /** Concluded target segments received. */
  phrases: number;
  /** End of each phrase in the audio to the arrival of its concluded translation, ms. */
  latenciesMs: number[];
  /** The concluded source text. */
  recognized: string;
  mediaChunks: number;
}

type Message = Record<string, Record<string, any>>;

export function sessionRequestBody(
  plan: Pick<SessionPlan, 'speech' | 'targetLanguages' | 'mediaLanguage'>,
  targetLanguages = plan.targetLanguages,
): string {
  return JSON.stringify({
    source_media_content_type: `audio/pcm;encoding=s16le;rate=${plan.speech.sampleRate}`,
    source_language: 'en',
    message_format: 'json',
    target_languages: targetLanguages,
    ...(plan.mediaLanguage ? { target_media_languages: [plan.mediaLanguage] } : {}),
  });
}

/** POST /v3/voice/realtime: the streaming URL and first token, or an error with the server's answer. */
export async function requestSession(
  baseUrl: string,
  apiKey: string,
  body: string,
): Promise<{ streaming_url: string; token: string; session_id: string }> {
  const response = await fetch(`${baseUrl}/v3/voice/realtime`, {
    method: 'POST',
    headers: { authorization: `DeepL-Auth-Key ${apiKey}`, 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`session request answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as { streaming_url: string; token: string; session_id: string };
}

export async function runStreamingSession(plan: SessionPlan): Promise<SessionOutcome> {
  const outcome: SessionOutcome = { phrases: 0, latenciesMs: [], recognized: '', mediaChunks: 0 };
  let session: { streaming_url: string; token: string };
  try {
    session = await requestSession(plan.baseUrl, plan.apiKey, sessionRequestBody(plan));
  } catch (error) {
    return { ...outcome, failure: (error as Error).message };
  }

  const socket = new WebSocket(`${session.streaming_url}?token=${encodeURIComponent(session.token)}`);
  const concludedPerLanguage = new Map<string, number>(plan.targetLanguages.map((language) => [language, 0]));
  const ends = new Set<string>();
  let errorMessage: string | undefined;
  let refusal: string | undefined;
  let start = 0;

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    let message: Message;
    try {
      message = JSON.parse(isBinary ? '' : data.toString('utf8')) as Message;
    } catch {
      errorMessage ??= `a frame that is not JSON (${isBinary ? 'binary' : data.toString('utf8').slice(0, 80)})`;
      return;
    }
    const [kind, payload] = Object.entries(message)[0] ?? [];
    if (kind === 'source_transcript_update') {
      for (const segment of payload.concluded as Array<{ text: string }>) outcome.recognized += segment.text;
    } else if (kind === 'target_transcript_update') {
      const concluded = payload.concluded as Array<{ end_time: number }>;
      concludedPerLanguage.set(payload.language, (concludedPerLanguage.get(payload.language) ?? 0) + concluded.length);
      for (const segment of concluded) {
        outcome.phrases++;
        outcome.latenciesMs.push(performance.now() - (start + segment.end_time));
      }
    } else if (kind === 'target_media_chunk') {
      outcome.mediaChunks++;
    } else if (kind === 'error') {
      errorMessage = `error ${payload.error_code}/${payload.reason_code} (${payload.request_type}): ${payload.error_message}`;
    } else if (kind?.startsWith('end_of_')) {
      ends.add(payload?.language ? `${kind}:${payload.language}` : kind);
    }
  });
  socket.once('unexpected-response', (_request, response) => {
    refusal = `the WebSocket upgrade answered ${response.statusCode}`;
    response.resume();
  });

  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.once('error', (error) => {
      refusal ??= `socket error: ${error.message}`;
      resolve({ code: -1, reason: error.message });
    });
  });
  const opened = await new Promise<boolean>((resolve) => {
    socket.once('open', () => resolve(true));
    void closed.then(() => resolve(false));
  });
  if (!opened) return { ...outcome, failure: refusal ?? 'the WebSocket closed before it opened' };

  // A live microphone: each chunk leaves once its audio has been spoken, on a fixed schedule (no drift).
  start = performance.now();
  const chunkBytes = Math.round((plan.speech.sampleRate * plan.chunkMs) / 1000) * 2;
  const pcm = plan.speech.pcm;
  for (
    let offset = 0, index = 1;
    offset < pcm.length && socket.readyState === WebSocket.OPEN;
    offset += chunkBytes, index++
  ) {
    const wait = start + index * plan.chunkMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    socket.send(
      JSON.stringify({ source_media_chunk: { data: pcm.subarray(offset, offset + chunkBytes).toString('base64') } }),
    );
  }
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ end_of_source_media: {} }));

  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), plan.graceMs).unref());
  const result = await Promise.race([closed, timeout]);
  if (result === 'timeout') {
    socket.terminate();
    return {
      ...outcome,
      failure: `no close within ${plan.graceMs} ms after the end of the audio (ends seen: ${[...ends].join(', ') || 'none'})`,
    };
  }
  const expectedEnds = [
    'end_of_source_transcript',
    ...plan.targetLanguages.map((language) => `end_of_target_transcript:${language}`),
    ...(plan.mediaLanguage ? [`end_of_target_media:${plan.mediaLanguage}`] : []),
    'end_of_stream',
  ];
  const missingEnds = expectedEnds.filter((end) => !ends.has(end));
  const untranslated = [...concludedPerLanguage].filter(([, count]) => count === 0).map(([language]) => language);
  const failure =
    errorMessage ??
    refusal ??
    (result.code !== 1000 ? `closed with ${result.code} ${result.reason}` : undefined) ??
    (missingEnds.length ? `missing ${missingEnds.join(', ')}` : undefined) ??
    (outcome.recognized.trim() === '' ? 'nothing was recognised' : undefined) ??
    (untranslated.length ? `no concluded translation into ${untranslated.join(', ')}` : undefined) ??
    (plan.mediaLanguage && outcome.mediaChunks === 0 ? `no ${plan.mediaLanguage} audio` : undefined);
  return { ...outcome, failure };
}
