import test from 'ava';
import { pack, unpack } from 'msgpackr';
import { MessageCodec } from '../src/domain/protocol/message-codec';
import { SessionError } from '../src/domain/protocol/protocol-violation';

const audio = Buffer.from([0, 1, 2, 253, 254, 255]);

test('JSON: server messages are TEXT frames with base64 audio', (t) => {
  const frame = new MessageCodec('json').encode({
    target_media_chunk: {
      language: 'es',
      data: [audio],
      duration: 20,
      content_type: 'audio/opus',
      headers: 0,
      text: 'Hola',
    },
  });
  t.false(frame.binary);
  t.deepEqual(JSON.parse(frame.data as string), {
    target_media_chunk: {
      language: 'es',
      data: [audio.toString('base64')],
      duration: 20,
      content_type: 'audio/opus',
      headers: 0,
      text: 'Hola',
    },
  });
});

test('MessagePack: server messages are BINARY frames of string-keyed maps with raw bytes', (t) => {
  const frame = new MessageCodec('msgpack').encode({
    target_media_chunk: { language: 'es', data: [audio], duration: 20 },
  });
  t.true(frame.binary);
  const bytes = frame.data as Buffer;
  t.is(bytes[0] & 0xf0, 0x80, 'a map (fixmap) at the top, not an array or record');
  const decoded = unpack(bytes);
  t.deepEqual(Object.keys(decoded), ['target_media_chunk']);
  t.true(Buffer.from(decoded.target_media_chunk.data[0]).equals(audio));
  t.false('text' in decoded.target_media_chunk);
});

test('client messages decode the same from JSON and MessagePack', (t) => {
  const fromJson = new MessageCodec('json').decode(
    JSON.stringify({ source_media_chunk: { data: audio.toString('base64') } }),
    false,
  );
  const fromMessagePack = new MessageCodec('msgpack').decode(pack({ source_media_chunk: { data: audio } }), true);
  t.deepEqual(fromJson, { source_media_chunk: { data: audio } });
  t.deepEqual(fromMessagePack, { source_media_chunk: { data: audio } });
  t.deepEqual(new MessageCodec('json').decode('{"end_of_source_media":{}}', false), { end_of_source_media: {} });
  t.deepEqual(new MessageCodec('msgpack').decode(pack({ end_of_source_media: {} }), true), { end_of_source_media: {} });
});

test('decoding errors carry the reason code and the request type', (t) => {
  const json = new MessageCodec('json');
  const cases: [() => unknown, number, string][] = [
    [() => json.decode('[]', false), 4000104, 'unknown'],
    [() => json.decode('"text"', false), 4000104, 'unknown'],
    [() => json.decode('{"end_of_source_media":[]}', false), 4000104, 'end_of_source_media'],
    [() => json.decode('{"source_media_chunk":{"data":5}}', false), 4000106, 'source_media_chunk'],
    [() => json.decode('{"source_media_chunk":{}}', false), 4000106, 'source_media_chunk'],
    [() => json.decode('{"hello":{}}', false), 4000103, 'hello'],
  ];
  for (const [action, reasonCode, requestType] of cases) {
    const error = t.throws(action, { instanceOf: SessionError });
    t.is(error?.reason.reasonCode, reasonCode);
    t.is(error?.requestType, requestType);
  }
});
