import test, { type ExecutionContext } from 'ava';
import { capabilitiesOf } from '../src/engines/voice-engines';
import { sessionConfigOf, type SessionRequest, type VoiceCapabilities } from '../src/domain/session/session-request';
import type { SessionConfig } from '../src/domain/session/session-config';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { requireEnginePackages } from './support/system-packages';

// The session request's rules as a client meets them: POST /v3/voice/realtime on a running server (rest.uws checks the
// body as a @Valid SessionRequestDto, the resource applies the engines' capabilities), every refusal a 400
// {message, code} naming the first problem. The configs the accepted requests make come from sessionConfigOf with the
// real engines' capabilities (what Debian's Apertium and voices provide).

let server: VoiceServer;
let key: string;
let capabilities: VoiceCapabilities;
test.before(async () => {
  requireEnginePackages();
  server = await startVoiceServer({ registry: { maxSessionsPerKey: 100_000 }, sessionRateLimit: false });
  key = await server.createApiKey('session requests');
  capabilities = capabilitiesOf(server.engines);
});
test.after.always(() => server?.close());

const minimal = { source_media_content_type: 'audio/ogg;codecs=opus' };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** POSTs a session request (an object as JSON, a string as it is, undefined: no body). */
async function ask(body: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}/v3/voice/realtime`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Auth-Key ${key}` },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function accepted(t: ExecutionContext, body: object): Promise<void> {
  const answer = await ask(body);
  t.is(answer.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
}

async function refused(t: ExecutionContext, body: unknown, code: string, pattern?: RegExp): Promise<void> {
  const answer = await ask(body);
  const shown = JSON.stringify(body)?.slice(0, 100);
  t.is(answer.status, 400, shown);
  t.deepEqual(Object.keys(answer.body).sort(), ['code', 'message'], shown);
  t.is(answer.body.code, code, `${shown}: ${String(answer.body.message)}`);
  if (pattern) t.regex(String(answer.body.message), pattern, shown);
}

/** The config an accepted request makes. */
function configOf(t: ExecutionContext, request: Record<string, unknown>): SessionConfig {
  const result = sessionConfigOf(request as unknown as SessionRequest, capabilities);
  if ('config' in result) return result.config;
  const { message } = result.error;
  t.fail(message);
  throw new Error(message);
}

test('only source_media_content_type is required; the rest takes the documented defaults', async (t) => {
  await accepted(t, minimal);
  const config = configOf(t, minimal);
  t.is(config.messageFormat, 'json');
  t.is(config.source.contentType, 'audio/ogg;codecs=opus');
  t.is(config.sourceLanguage, 'en');
  t.is(config.sourceLanguageMode, 'auto');
  t.deepEqual(config.targetLanguages, []);
  t.deepEqual(config.targetMediaLanguages, []);
  t.is(config.targetMedia.contentType, 'audio/webm;codecs=opus');
  t.is(config.targetMediaVoice, undefined);
  t.is(config.formality, 'default');
  // The empty source_language is a field left out (the API's description allows it).
  await accepted(t, { ...minimal, source_language: '' });
});

test('null is refused for every field (the API schema allows no null): 400 saying to leave the field out', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['message_format', 'invalid_message_format', /the default \(json\)$/],
    ['source_language', 'invalid_source_language', /no source language/],
    ['source_language_mode', 'invalid_source_language_mode', /the default \(auto\)$/],
    ['target_languages', 'invalid_request', /no targets \(\[\]\)$/],
    ['target_media_languages', 'invalid_request', /no spoken language/],
    ['target_media_content_type', 'invalid_content_type', /the default \(audio\/webm;codecs=opus\)$/],
    ['target_media_voice', 'invalid_target_media_voice', /the language's default voice$/],
    ['formality', 'invalid_formality', /the default \(default\)$/],
    ['glossary_id', 'invalid_glossary_id', /no glossary$/],
    ['spoken_terms_id', 'invalid_spoken_terms_id', /no spoken terms$/],
  ];
  for (const [field, code, pattern] of cases) {
    await refused(
      t,
      { ...minimal, [field]: null },
      code,
      new RegExp(`^${field} must not be null; leave the field out for ${pattern.source}`),
    );
  }
  // Null is named even when the mode would need the field anyway.
  await refused(t, { ...minimal, source_language_mode: 'fixed', source_language: null }, 'invalid_source_language');
});

test('MIME types are parsed tolerantly (spaces, case, trailing semicolon, quotes)', async (t) => {
  for (const spelling of [
    'audio/ogg; codecs=opus',
    'AUDIO/OGG;CODECS=OPUS',
    'audio/ogg;codecs=opus;',
    'audio/ogg ; codecs = "opus"',
  ]) {
    await accepted(t, { source_media_content_type: spelling });
    t.is(configOf(t, { source_media_content_type: spelling }).source.contentType, 'audio/ogg;codecs=opus', spelling);
  }
  const pcm = configOf(t, { source_media_content_type: 'audio/pcm; rate=16000; encoding=s16le' });
  t.true(pcm.source.contentType === 'audio/pcm;encoding=s16le;rate=16000' && pcm.source.pcm?.bytesPerFrame === 2);
  await accepted(t, { ...minimal, target_media_content_type: 'audio/webm; codecs=opus' });
  t.is(
    configOf(t, { ...minimal, target_media_content_type: 'audio/webm; codecs=opus' }).targetMedia.contentType,
    'audio/webm;codecs=opus',
  );
});

test('every source type of the real API is accepted', async (t) => {
  const types = [
    'audio/auto',
    'audio/flac',
    'audio/mpeg',
    'audio/ogg',
    'audio/webm',
    'audio/x-matroska',
    'audio/ogg;codecs=flac',
    'audio/ogg;codecs=opus',
    'audio/pcm;encoding=alaw;rate=8000',
    'audio/pcm;encoding=ulaw;rate=8000',
    'audio/pcm;encoding=s16le;rate=8000',
    'audio/pcm;encoding=s16le;rate=16000',
    'audio/pcm;encoding=s16le;rate=44100',
    'audio/pcm;encoding=s16le;rate=48000',
    'audio/webm;codecs=opus',
    'audio/x-matroska;codecs=aac',
    'audio/x-matroska;codecs=flac',
    'audio/x-matroska;codecs=mp3',
    'audio/x-matroska;codecs=opus',
  ];
  for (const type of types) await accepted(t, { source_media_content_type: type });
});

test('a missing or malformed body is refused', async (t) => {
  await refused(
    t,
    undefined,
    'invalid_request',
    /^The request body must be a JSON object with at least source_media_content_type$/,
  );
  await refused(t, [], 'invalid_request', /^The request body must be a JSON object$/);
  await refused(t, 'null', 'invalid_request', /^The request body must be a JSON object$/);
  await refused(t, '"audio/ogg"', 'invalid_request', /^The request body must be a JSON object$/);
  await refused(t, '{"source_media_content_type": ', 'invalid_request');
  await refused(t, {}, 'missing_parameter', /^source_media_content_type is required$/);
  await refused(t, { source_media_content_type: null }, 'missing_parameter', /^source_media_content_type is required$/);
  await refused(t, { ...minimal, colour: 'blue' }, 'unknown_parameter', /^Unknown parameter\(s\): colour$/);
  await refused(
    t,
    { size: 1, ...minimal, colour: 'blue', message_format: 'xml' },
    'unknown_parameter',
    /^Unknown parameter\(s\): size, colour$/,
  );
});

test('unsupported source content types are refused with invalid_content_type', async (t) => {
  await refused(t, { source_media_content_type: 'video/mp4' }, 'invalid_content_type', /not supported/);
  await refused(t, { source_media_content_type: 'audio/ogg;codecs=vorbis' }, 'invalid_content_type', /vorbis/);
  await refused(
    t,
    { source_media_content_type: 'audio/pcm;encoding=s16le;rate=22050' },
    'invalid_content_type',
    /8000\|16000\|44100\|48000/,
  );
  await refused(
    t,
    { source_media_content_type: 'audio/pcm;encoding=f32le;rate=16000' },
    'invalid_content_type',
    /encoding/,
  );
  await refused(
    t,
    { source_media_content_type: 'not a type' },
    'invalid_content_type',
    /^source_media_content_type "not a type" is not a valid MIME type$/,
  );
  await refused(t, { source_media_content_type: 42 }, 'invalid_content_type', /must be a MIME type string/);
  await refused(t, { source_media_content_type: '' }, 'invalid_content_type', /must be a MIME type string/);
});

test('message_format is json or msgpack', async (t) => {
  await accepted(t, { ...minimal, message_format: 'msgpack' });
  t.is(configOf(t, { ...minimal, message_format: 'msgpack' }).messageFormat, 'msgpack');
  await refused(
    t,
    { ...minimal, message_format: 'xml' },
    'invalid_message_format',
    /^message_format must be "json" or "msgpack", got "xml"$/,
  );
  await refused(t, { ...minimal, message_format: 7 }, 'invalid_message_format', /got 7$/);
});

test('only English sources are served; other API languages get a clear 400', async (t) => {
  await accepted(t, { ...minimal, source_language: 'EN', source_language_mode: 'fixed' });
  const fixed = configOf(t, { ...minimal, source_language: 'EN', source_language_mode: 'fixed' });
  t.true(fixed.sourceLanguage === 'en' && fixed.sourceLanguageMode === 'fixed');
  await accepted(t, { ...minimal, source_language: '' });
  await refused(t, { ...minimal, source_language: 'de' }, 'unsupported_source_language', /English|en/);
  await refused(
    t,
    { ...minimal, source_language: 'xx' },
    'invalid_source_language',
    /^source_language "xx" is not a source language of this API$/,
  );
  await refused(t, { ...minimal, source_language: 12 }, 'invalid_source_language', /^source_language 12 is not/);
  await refused(
    t,
    { ...minimal, source_language_mode: 'fixed' },
    'missing_parameter',
    /^source_language_mode "fixed" needs source_language$/,
  );
  await refused(t, { ...minimal, source_language_mode: 'fixed', source_language: '' }, 'missing_parameter', /fixed/);
  await refused(
    t,
    { ...minimal, source_language_mode: 'sometimes' },
    'invalid_source_language_mode',
    /^source_language_mode must be "auto" or "fixed", got "sometimes"$/,
  );
});

test('target languages: canonical tags, duplicates merged, at most five, unsupported ones refused', async (t) => {
  const request = { ...minimal, target_languages: ['ES', 'pt-br', 'fr', 'es', 'it'] };
  await accepted(t, request);
  t.deepEqual(configOf(t, request).targetLanguages, ['es', 'pt-BR', 'fr', 'it']);
  await refused(
    t,
    { ...minimal, target_languages: ['es', 'fr', 'it', 'pt', 'ca', 'gl'] },
    'too_many_target_languages',
    /^target_languages allows at most 5 language\(s\), got 6$/,
  );
  await refused(t, { ...minimal, target_languages: ['de'] }, 'unsupported_target_language', /supported: .*es/);
  await refused(t, { ...minimal, target_languages: ['zh-HANS'] }, 'unsupported_target_language');
  await refused(
    t,
    { ...minimal, target_languages: ['xq'] },
    'invalid_target_language',
    /^"xq" is not a target language of this API$/,
  );
  await refused(
    t,
    { ...minimal, target_languages: ['es', 'klingon'] },
    'invalid_target_language',
    /^target_languages contains "klingon", which is not a language tag$/,
  );
  await refused(
    t,
    { ...minimal, target_languages: 'es' },
    'invalid_request',
    /^target_languages must be an array of language tags$/,
  );
});

test('target_media_languages: at most one, added to the targets, must have a voice', async (t) => {
  const request = {
    ...minimal,
    target_languages: ['fr'],
    target_media_languages: ['es'],
    target_media_voice: 'female',
  };
  await accepted(t, request);
  const config = configOf(t, request);
  t.deepEqual(config.targetLanguages, ['fr', 'es']);
  t.deepEqual(config.targetMediaLanguages, ['es']);
  t.is(config.targetMediaVoice, 'female');
  await refused(
    t,
    { ...minimal, target_media_languages: ['es', 'fr'] },
    'too_many_target_languages',
    /^target_media_languages allows at most 1 language\(s\), got 2$/,
  );
  await refused(t, { ...minimal, target_media_languages: ['gl'] }, 'unsupported_target_media_language', /voice/);
  await refused(
    t,
    { ...minimal, target_languages: ['es', 'fr', 'it', 'pt', 'ca'], target_media_languages: ['en'] },
    'too_many_target_languages',
    /target_media_languages included \(got 6\)/,
  );
  await refused(
    t,
    { ...minimal, target_media_languages: {} },
    'invalid_request',
    /^target_media_languages must be an array/,
  );
  await refused(
    t,
    { ...minimal, target_media_voice: 'robot' },
    'invalid_target_media_voice',
    /^target_media_voice must be "male" or "female", got "robot"$/,
  );
});

test("target_media_content_type: every format of DeepL's enum, MPEG-TS included; a bare video/mp2t asks for the codec", async (t) => {
  for (const type of [
    'audio/flac',
    'video/mp2t;codecs=aac',
    'video/mp2t; codecs=opus',
    'audio/ogg',
    'audio/ogg;codecs=flac',
    'audio/ogg;codecs=opus',
    'audio/opus',
    'audio/pcm;encoding=alaw;rate=8000',
    'audio/pcm;encoding=ulaw;rate=8000',
    'audio/pcm;encoding=s16le;rate=16000',
    'audio/pcm;encoding=s16le;rate=24000',
    'audio/webm',
    'audio/webm;codecs=opus',
    'audio/x-matroska;codecs=aac',
    'audio/x-matroska;codecs=flac',
    'audio/x-matroska;codecs=opus',
  ]) {
    await accepted(t, { ...minimal, target_media_content_type: type });
  }
  t.is(
    configOf(t, { ...minimal, target_media_content_type: 'video/mp2t; codecs=opus' }).targetMedia.contentType,
    'video/mp2t;codecs=opus',
  );
  await refused(
    t,
    { ...minimal, target_media_content_type: 'video/mp2t' },
    'invalid_content_type',
    /name the codec: video\/mp2t;codecs=aac or video\/mp2t;codecs=opus/,
  );
  await refused(
    t,
    { ...minimal, target_media_content_type: 'audio/pcm;encoding=s16le;rate=8000' },
    'invalid_content_type',
  );
  await refused(t, { ...minimal, target_media_content_type: 5 }, 'invalid_content_type', /must be a MIME type string/);
});

test('formality is one of the documented values; glossary_id and spoken_terms_id must name resources of the key', async (t) => {
  await accepted(t, { ...minimal, formality: 'less' });
  t.is(configOf(t, { ...minimal, formality: 'less' }).formality, 'less');
  await refused(
    t,
    { ...minimal, formality: 'casual' },
    'invalid_formality',
    /^formality must be one of default, formal, more, informal, less, got "casual"$/,
  );
  await refused(
    t,
    { ...minimal, target_languages: ['es'], glossary_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7' },
    'glossary_not_found',
    /^Glossary "def3a26b-3e84-45b3-84ae-0c0aaf3525f7" not found/,
  );
  await refused(t, { ...minimal, glossary_id: 5 }, 'invalid_glossary_id', /^glossary_id must be a non-empty string/);
  await refused(
    t,
    { ...minimal, spoken_terms_id: '' },
    'invalid_spoken_terms_id',
    /^spoken_terms_id must be a non-empty string/,
  );
  await refused(
    t,
    { ...minimal, spoken_terms_id: '7c4f1080-cfe2-41d4-8269-0e6ec15a0354' },
    'spoken_terms_not_found',
    /^Spoken Terms collection "7c4f1080-cfe2-41d4-8269-0e6ec15a0354" not found/,
  );
});

test('one problem at a time: the first in the order the API checks the fields', async (t) => {
  await refused(t, { glossary_id: 5, message_format: 'xml' }, 'invalid_glossary_id');
  await refused(t, { message_format: 'xml', formality: 'casual' }, 'invalid_message_format');
  await refused(t, { message_format: 'xml' }, 'invalid_message_format');
  await refused(
    t,
    { ...minimal, source_language_mode: 'sometimes', source_language: 'xx' },
    'invalid_source_language_mode',
  );
  await refused(t, { source_media_content_type: 'video/mp4', target_languages: 'es' }, 'invalid_content_type');
  await refused(t, { ...minimal, target_languages: ['klingon', 'a', 'b', 'c', 'd', 'e'] }, 'too_many_target_languages');
  await refused(
    t,
    { ...minimal, target_languages: ['klingon'], target_media_languages: ['es', 'fr'] },
    'invalid_target_language',
  );
  await refused(
    t,
    { ...minimal, target_languages: ['de'], target_media_languages: ['gl'] },
    'unsupported_target_language',
  );
  await refused(t, { ...minimal, target_media_voice: 'robot', formality: 'casual' }, 'invalid_target_media_voice');
});

test('values named in refusals are described, not serialised whole: a nested list, an object or a long string is refused, not a crash', async (t) => {
  const deep = JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) as unknown;
  await refused(
    t,
    { ...minimal, target_languages: [deep] },
    'invalid_target_language',
    /target_languages contains a list, which is not a language tag/,
  );
  await refused(t, { ...minimal, message_format: deep }, 'invalid_message_format', /got a list$/);
  await refused(t, { ...minimal, formality: { nested: deep } }, 'invalid_formality', /got an object$/);
  await refused(
    t,
    { ...minimal, source_language_mode: 'x'.repeat(10_000) },
    'invalid_source_language_mode',
    /got "x{40}\.\.\."$/,
  );
  // Deeper than rest.uws's JSON depth limit (256): refused while the body is read, before any field is looked at.
  const tooDeep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  await refused(
    t,
    `{"source_media_content_type":"audio/ogg","target_languages":[${tooDeep}]}`,
    'invalid_request',
    /nested deeper than 256 levels/,
  );
});
