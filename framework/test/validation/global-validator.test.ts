import test from 'ava';
import { IsString } from 'class-validator';
import { POST, Path, RestRouter, Valid, type Validator } from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { listen } from '../support/server';

class Note {
  @IsString() text!: string;
}

@Path('/notes')
class NoteResource {
  @POST
  @Path('/')
  add(@Valid note: Note): string {
    return note.text;
  }
}

const checked: string[] = [];
/** Refuses notes shouting in capitals, and records what it saw. */
const shoutingValidator: Validator = {
  validate(value: object) {
    const text = (value as Note).text;
    checked.push(text);
    return text === text.toUpperCase()
      ? [{ path: 'text', constraint: 'noShouting', message: 'text must not shout' }]
      : [];
  },
};

RestRouter.validateWith(shoutingValidator);

test('RestRouter.validateWith sets the validator of apps that configure none', async (t) => {
  const app = loadUws().App();
  RestRouter.register(app, NoteResource);
  const server = await listen(app);
  t.teardown(() => server.close());
  const post = (text: string) =>
    fetch(`${server.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  t.is(await (await post('quiet')).text(), 'quiet');
  const loud = await post('LOUD');
  t.is(loud.status, 400);
  t.like(await loud.json(), {
    violations: [{ in: 'body', path: 'text', constraint: 'noShouting', message: 'text must not shout' }],
  });
  t.deepEqual(checked, ['quiet', 'LOUD']);
});

test('validateWith refuses what is neither a Validator nor options', (t) => {
  t.throws(() => RestRouter.validateWith('strict' as never), { message: /Validator or ClassValidator options/ });
});
