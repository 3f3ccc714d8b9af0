import test from 'ava';
import { validateSessionRequest, type VoiceCapabilities } from '../src/domain/session/session-request';
import { ApertiumTranslator } from '../src/engines/apertium/apertium-translator';
import { OfflineSpeechSynthesizer } from '../src/engines/speech/offline-speech-synthesizer';
import { requireEnginePackages } from './support/system-packages';

// The real engines' capabilities (what Debian's Apertium and voices provide), without starting them.
let capabilities: VoiceCapabilities;
test.before(() => {
  requireEnginePackages();
  const translator = new ApertiumTranslator();
  capabilities = {
    sourceLanguages: ['en'],
    targetsFor: (source) => translator.targetsFor(source),
    mediaLanguages: new OfflineSpeechSynthesizer().languages,
  };
});

const minimal = { source_media_content_type: 'audio/ogg;codecs=opus' };

function refused(t: import('ava').ExecutionContext, body: unknown, code: string, pattern?: RegExp): void {
  const result = validateSessionRequest(body, capabilities);
  if (!('error' in result)) {
    t.fail(`expected ${code}, got a config`);
    return;
  }
  t.is(result.error.code, code, result.error.message);
  if (pattern) t.regex(result.error.message, pattern);
}

test('only source_media_content_type is required; the rest takes the documented defaults', (t) => {
  const result = validateSessionRequest(minimal, capabilities);
  if ('error' in result) return t.fail(result.error.message);
  const config = result.config;
  t.is(config.messageFormat, 'json');
  t.is(config.source.contentType, 'audio/ogg;codecs=opus');
  t.is(config.sourceLanguage, 'en');
  t.is(config.sourceLanguageMode, 'auto');
  t.deepEqual(config.targetLanguages, []);
  t.deepEqual(config.targetMediaLanguages, []);
  t.is(config.targetMedia.contentType, 'audio/webm;codecs=opus');
  t.is(config.targetMediaVoice, undefined);
  t.is(config.formality, 'default');
});

test('MIME types are parsed tolerantly (spaces, case, trailing semicolon, quotes)', (t) => {
  for (const spelling of ['audio/ogg; codecs=opus', 'AUDIO/OGG;CODECS=OPUS', 'audio/ogg;codecs=opus;', 'audio/ogg ; codecs = "opus"']) {
    const result = validateSessionRequest({ source_media_content_type: spelling }, capabilities);
    t.true('config' in result && result.config.source.contentType === 'audio/ogg;codecs=opus', spelling);
  }
  const pcm = validateSessionRequest({ source_media_content_type: 'audio/pcm; rate=16000; encoding=s16le' }, capabilities);
  t.true('config' in pcm && pcm.config.source.contentType === 'audio/pcm;encoding=s16le;rate=16000' && pcm.config.source.pcm?.bytesPerFrame === 2);
  const target = validateSessionRequest({ ...minimal, target_media_content_type: 'audio/webm; codecs=opus' }, capabilities);
  t.true('config' in target && target.config.targetMedia.contentType === 'audio/webm;codecs=opus');
});

test('every source type of the real API is accepted', (t) => {
  const types = [
    'audio/auto', 'audio/flac', 'audio/mpeg', 'audio/ogg', 'audio/webm', 'audio/x-matroska', 'audio/ogg;codecs=flac', 'audio/ogg;codecs=opus',
    'audio/pcm;encoding=alaw;rate=8000', 'audio/pcm;encoding=ulaw;rate=8000', 'audio/pcm;encoding=s16le;rate=8000', 'audio/pcm;encoding=s16le;rate=16000',
    'audio/pcm;encoding=s16le;rate=44100', 'audio/pcm;encoding=s16le;rate=48000', 'audio/webm;codecs=opus', 'audio/x-matroska;codecs=aac',
    'audio/x-matroska;codecs=flac', 'audio/x-matroska;codecs=mp3', 'audio/x-matroska;codecs=opus',
  ];
  for (const type of types) t.true('config' in validateSessionRequest({ source_media_content_type: type }, capabilities), type);
});

test('a missing or malformed body is refused', (t) => {
  refused(t, undefined, 'invalid_request');
  refused(t, [], 'invalid_request');
  refused(t, {}, 'missing_parameter', /source_media_content_type is required/);
  refused(t, { ...minimal, colour: 'blue' }, 'unknown_parameter', /colour/);
});

test('unsupported source content types are refused with invalid_content_type', (t) => {
  refused(t, { source_media_content_type: 'video/mp4' }, 'invalid_content_type', /not supported/);
  refused(t, { source_media_content_type: 'audio/ogg;codecs=vorbis' }, 'invalid_content_type', /vorbis/);
  refused(t, { source_media_content_type: 'audio/pcm;encoding=s16le;rate=22050' }, 'invalid_content_type', /8000\|16000\|44100\|48000/);
  refused(t, { source_media_content_type: 'audio/pcm;encoding=f32le;rate=16000' }, 'invalid_content_type', /encoding/);
  refused(t, { source_media_content_type: 'not a type' }, 'invalid_content_type');
  refused(t, { source_media_content_type: 42 }, 'invalid_content_type');
});

test('message_format is json or msgpack', (t) => {
  const result = validateSessionRequest({ ...minimal, message_format: 'msgpack' }, capabilities);
  t.true('config' in result && result.config.messageFormat === 'msgpack');
  refused(t, { ...minimal, message_format: 'xml' }, 'invalid_message_format');
});

test('only English sources are served; other API languages get a clear 400', (t) => {
  const fixed = validateSessionRequest({ ...minimal, source_language: 'EN', source_language_mode: 'fixed' }, capabilities);
  t.true('config' in fixed && fixed.config.sourceLanguage === 'en' && fixed.config.sourceLanguageMode === 'fixed');
  refused(t, { ...minimal, source_language: 'de' }, 'unsupported_source_language', /English|en/);
  refused(t, { ...minimal, source_language: 'xx' }, 'invalid_source_language');
  refused(t, { ...minimal, source_language_mode: 'fixed' }, 'missing_parameter', /fixed/);
  refused(t, { ...minimal, source_language_mode: 'sometimes' }, 'invalid_source_language_mode');
});

test('target languages: canonical tags, duplicates merged, at most five, unsupported ones refused', (t) => {
  const result = validateSessionRequest({ ...minimal, target_languages: ['ES', 'pt-br', 'fr', 'es', 'it'] }, capabilities);
  t.true('config' in result);
  if ('config' in result) t.deepEqual(result.config.targetLanguages, ['es', 'pt-BR', 'fr', 'it']);
  refused(t, { ...minimal, target_languages: ['es', 'fr', 'it', 'pt', 'ca', 'gl'] }, 'too_many_target_languages');
  refused(t, { ...minimal, target_languages: ['de'] }, 'unsupported_target_language', /supported: .*es/);
  refused(t, { ...minimal, target_languages: ['zh-HANS'] }, 'unsupported_target_language');
  refused(t, { ...minimal, target_languages: ['klingon'] }, 'invalid_target_language');
  refused(t, { ...minimal, target_languages: 'es' }, 'invalid_request');
});

test('target_media_languages: at most one, added to the targets, must have a voice', (t) => {
  const result = validateSessionRequest({ ...minimal, target_languages: ['fr'], target_media_languages: ['es'], target_media_voice: 'female' }, capabilities);
  t.true('config' in result);
  if ('config' in result) {
    t.deepEqual(result.config.targetLanguages, ['fr', 'es']);
    t.deepEqual(result.config.targetMediaLanguages, ['es']);
    t.is(result.config.targetMediaVoice, 'female');
  }
  refused(t, { ...minimal, target_media_languages: ['es', 'fr'] }, 'too_many_target_languages');
  refused(t, { ...minimal, target_media_languages: ['gl'] }, 'unsupported_target_media_language', /voice/);
  refused(t, { ...minimal, target_languages: ['es', 'fr', 'it', 'pt', 'ca'], target_media_languages: ['en'] }, 'too_many_target_languages');
  refused(t, { ...minimal, target_media_voice: 'robot' }, 'invalid_target_media_voice');
});

test('target_media_content_type: every offered format, MPEG-TS refused', (t) => {
  for (const type of ['audio/flac', 'audio/ogg', 'audio/ogg;codecs=flac', 'audio/opus', 'audio/pcm;encoding=s16le;rate=24000', 'audio/x-matroska;codecs=aac']) {
    t.true('config' in validateSessionRequest({ ...minimal, target_media_content_type: type }, capabilities), type);
  }
  refused(t, { ...minimal, target_media_content_type: 'video/mp2t;codecs=aac' }, 'invalid_content_type', /MPEG-TS/);
  refused(t, { ...minimal, target_media_content_type: 'audio/pcm;encoding=s16le;rate=8000' }, 'invalid_content_type');
});

test('formality is one of the documented values; glossaries are not available offline', (t) => {
  const result = validateSessionRequest({ ...minimal, formality: 'less' }, capabilities);
  t.true('config' in result && result.config.formality === 'less');
  refused(t, { ...minimal, formality: 'casual' }, 'invalid_formality');
  refused(t, { ...minimal, glossary_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7' }, 'unsupported_parameter', /glossar/);
});

test('values named in refusals are described, not serialised whole: a list nested 5,000 deep or a long string is refused, not a crash', (t) => {
  const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as unknown;
  refused(t, { ...minimal, target_languages: [deep] }, 'invalid_target_language', /target_languages contains a list, which is not a language tag/);
  refused(t, { ...minimal, message_format: deep }, 'invalid_message_format', /got a list$/);
  refused(t, { ...minimal, formality: { nested: deep } }, 'invalid_formality', /got an object$/);
  refused(t, { ...minimal, source_language_mode: 'x'.repeat(10_000) }, 'invalid_source_language_mode', /got "x{40}\.\.\."$/);
});
