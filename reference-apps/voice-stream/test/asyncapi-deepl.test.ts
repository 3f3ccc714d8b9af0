/**
 * The stream's AsyncAPI document: valid for @asyncapi/parser, and its messages compatible with DeepL's published
 * voice.asyncapi.yaml (and the target-media transcription): every DeepL message is declared under its name, with a
 * payload of the same shape (same properties, types and required fields, nested objects and array items alike), and
 * each side's examples validate against the other side's schema.
 */
import { Parser } from '@asyncapi/parser';
import test from 'ava';
import Ajv from 'ajv';
import { asyncApiDocument, RestBuilder } from 'rest.uws';
import { ASYNCAPI_PATH } from '../src/app';
import { StreamTicket, VoiceStreamEndpoint } from '../src/http/voice-stream-endpoint';
import { startVoiceServer } from '../src/server';
import { DeepLSpec } from './support/deepl-spec';
import { requireEnginePackages } from './support/system-packages';

type Schema = Record<string, any>;

function documentOfEndpoint(): Schema {
  const app = new RestBuilder()
    .register(new VoiceStreamEndpoint(undefined as never, undefined as never, {}))
    .addProvider(StreamTicket, () => {
      throw new Error('not connected in this test');
    })
    .build();
  return asyncApiDocument(app, { title: 'Voice stream', version: '1.0.0' }) as Schema;
}

/** A schema with its local `$ref`s and `allOf`s resolved: what a validator sees. */
function flat(doc: Schema, schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce((node: any, key: string) => node?.[key], doc);
    return flat(doc, target);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s: Schema) => flat(doc, s)!);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
      required: parts.flatMap((p: Schema) => p.required ?? []),
    };
  }
  return schema;
}

/** The shape of a schema: types, required fields and properties, recursively (descriptions and examples left out). */
function shape(doc: Schema, schema: Schema | undefined): unknown {
  const s = flat(doc, schema);
  if (s === undefined) return undefined;
  const type = s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  if (type === 'object') {
    const properties = Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([k, v]) => [k, shape(doc, v as Schema)]),
    );
    return { type, required: [...(s.required ?? [])].sort(), properties };
  }
  if (type === 'array') return { type, items: shape(doc, s.items) };
  return { type, format: s.format };
}

/**
 * Where the app's shape is not DeepL's: another type or format, other required fields, a property DeepL declares that
 * the app lacks, or one the app adds where DeepL lists the properties (an object DeepL leaves without properties,
 * `end_of_stream`, may be described further).
 */
function differences(ours: any, theirs: any, at: string): string[] {
  if (theirs === undefined) return [];
  if (ours === undefined) return [`${at}: missing`];
  if (ours.type !== theirs.type || ours.format !== theirs.format)
    return [`${at}: ${ours.type}/${ours.format} where DeepL has ${theirs.type}/${theirs.format}`];
  if (ours.type === 'array') return differences(ours.items, theirs.items, `${at}[]`);
  if (ours.type !== 'object') return [];
  const out: string[] = [];
  if (JSON.stringify(ours.required) !== JSON.stringify(theirs.required))
    out.push(`${at}: requires ${ours.required} where DeepL requires ${theirs.required}`);
  const theirNames = Object.keys(theirs.properties);
  for (const name of theirNames)
    out.push(...differences(ours.properties[name], theirs.properties[name], `${at}.${name}`));
  if (theirNames.length > 0)
    for (const name of Object.keys(ours.properties))
      if (!theirNames.includes(name)) out.push(`${at}.${name}: not in DeepL's message`);
  return out;
}

const spec = new DeepLSpec();
const deeplMessages: Array<[string, Schema, Schema]> = [
  ...Object.entries<Schema>(spec.asyncapi.components.messages).map(
    ([name, m]) => [name, spec.asyncapi, m] as [string, Schema, Schema],
  ),
  // The target-media transcription has schemas only: its messages are named after them.
  ...Object.keys(spec.targetMedia.components.schemas).map(
    (key) =>
      [key.replace(/Payload$/, ''), spec.targetMedia, { payload: { $ref: `#/components/schemas/${key}` } }] as [
        string,
        Schema,
        Schema,
      ],
  ),
];

/** The parser's errors (severity 0) on a document, as `path: message`. */
async function parserErrors(doc: Schema): Promise<string[]> {
  const { diagnostics } = await new Parser().parse(JSON.stringify(doc));
  return diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
}

test('the stream document is valid AsyncAPI 3.0 for @asyncapi/parser', async (t) => {
  const doc = documentOfEndpoint();
  t.deepEqual(await parserErrors(doc), []);
  t.is(doc.channels.VoiceStreamEndpoint.address, '/v3/voice/realtime/connect');
});

test('the running app serves that document at /asyncapi.json, and the served one validates', async (t) => {
  requireEnginePackages();
  const server = await startVoiceServer();
  t.teardown(() => server.close());
  const res = await fetch(`${server.url}${ASYNCAPI_PATH}`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const served = (await res.json()) as Schema;
  // What the tests above check, as the server publishes it: only the title and description are the app's own.
  const checked = documentOfEndpoint();
  for (const part of ['asyncapi', 'channels', 'operations', 'components'])
    t.deepEqual(served[part], checked[part], part);
  t.is(served.info.title, 'Voice stream');
  t.deepEqual(await parserErrors(served), []);
});

test('every DeepL message is declared under its name, with the same payload shape', (t) => {
  const doc = documentOfEndpoint();
  t.true(deeplMessages.length >= 10);
  for (const [name, deeplDoc, message] of deeplMessages) {
    const ours: Schema | undefined = doc.components.messages[name];
    t.not(ours, undefined, `${name} is declared`);
    if (ours === undefined) continue;
    t.deepEqual(differences(shape(doc, ours.payload), shape(deeplDoc, message.payload), name), []);
  }
  // Which way each message goes, as DeepL's operations say (from the server's side: send is what it sends).
  const directions = (d: Schema) =>
    Object.fromEntries(
      Object.values<Schema>(d.operations).flatMap((op) =>
        op.messages.map((m: Schema) => [m.$ref.split('/').pop(), op.action]),
      ),
    );
  const deepl = directions(spec.asyncapi);
  const app = directions(doc);
  // DeepL's file lists the client's messages under its "receive" operation and the server's under "send"
  // the other way round from their names (sendAudioData holds the transcripts); the app follows what the
  // messages do: the server receives audio and sends transcripts.
  for (const name of ['SourceMediaChunk', 'EndOfSourceMedia']) {
    t.is(app[name], 'receive', name);
    t.is(deepl[name], 'receive', name);
  }
  for (const name of ['SourceTranscriptUpdate', 'TargetTranscriptUpdate', 'EndOfStream', 'Error']) {
    t.is(app[name], 'send', name);
    t.is(deepl[name], 'send', name);
  }
});

test("DeepL's examples validate against the app's payloads", (t) => {
  const doc = documentOfEndpoint();
  const ajv = new Ajv({ strict: false, validateFormats: false });
  let checked = 0;
  for (const [name, , message] of deeplMessages) {
    for (const example of message.examples ?? []) {
      const validate = ajv.compile(doc.components.messages[name].payload);
      t.true(validate(example.payload), `${name}: ${JSON.stringify(validate.errors)}`);
      checked++;
    }
  }
  t.true(checked >= 8);
  // And the check can fail: a transcript update without its tentative segments is refused.
  const update = ajv.compile(doc.components.messages.SourceTranscriptUpdate.payload);
  t.false(update({ source_transcript_update: { concluded: [] } }));
});
