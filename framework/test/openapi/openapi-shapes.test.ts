/**
 * Shapes TypeScript records poorly: an interface return type, a `string | undefined` query value, an event stream.
 */
import test from 'ava';
import {
  ApiResponse,
  EventStream,
  GET,
  Path,
  QueryParam,
  RegistrationError,
  RestBuilder,
  ServerSentEvents,
  openApiDocument,
} from '../../src/index';
import { oasValidator } from '../support/openapi-validator';

interface Note {
  id: number;
  text: string;
}

@Path('/notes')
class Notes {
  /** An interface: TypeScript records only Array. */
  @GET @Path('/') list(@QueryParam('q', { optional: true }) q: string | undefined): Note[] {
    return q === undefined ? [] : [];
  }

  /** The same, with its items named in a schema the document is given. */
  @GET
  @Path('/described')
  @ApiResponse(200, { schema: { type: 'array', items: { $ref: '#/components/schemas/Note' } } })
  described(): Note[] {
    return [];
  }

  @GET @Path('/events') @ServerSentEvents() events(): EventStream {
    return new EventStream();
  }

  @GET @Path('/generated') @ServerSentEvents() async *generated() {
    yield 'one';
  }
}

const NOTE_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer' }, text: { type: 'string' } },
  required: ['id', 'text'],
};

const document = (): any =>
  openApiDocument(new RestBuilder().register(Notes).build(), {
    title: 'Notes',
    version: '1',
    schemas: { Note: NOTE_SCHEMA },
  });

test('a `string | undefined` query value (recorded as Object) is documented as the string it arrives as', (t) => {
  const [q] = document().paths['/notes'].get.parameters;
  t.deepEqual(q, { name: 'q', in: 'query', required: false, schema: { type: 'string' } });
});

test('an event stream is text/event-stream of strings, and its EventStream class adds no schema', (t) => {
  const doc = document();
  for (const path of ['/notes/events', '/notes/generated'])
    t.deepEqual(doc.paths[path].get.responses['200'].content, { 'text/event-stream': { schema: { type: 'string' } } });
  t.false('EventStream' in doc.components.schemas);
});

test('an interface return type: open items, or the schema given to openApi({ schemas }) and @ApiResponse', (t) => {
  const doc = document();
  const validate = oasValidator();
  t.true(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  t.deepEqual(doc.paths['/notes'].get.responses['200'].content['application/json'].schema, {
    type: 'array',
    items: {},
  });
  t.deepEqual(doc.paths['/notes/described'].get.responses['200'].content['application/json'].schema, {
    type: 'array',
    items: { $ref: '#/components/schemas/Note' },
  });
  t.deepEqual(doc.components.schemas.Note, NOTE_SCHEMA);
  const bad = t.throws(
    () =>
      openApiDocument(new RestBuilder().register(Notes).build(), {
        title: 'Notes',
        version: '1',
        schemas: { 'a note': NOTE_SCHEMA },
      }),
    { instanceOf: RegistrationError },
  );
  t.regex(bad!.message, /schemas\.a note must be a JSON Schema object named with letters/);
});
