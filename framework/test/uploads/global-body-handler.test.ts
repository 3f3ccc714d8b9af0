import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Context, Path, POST, RegistrationError, RestBuilder, RestRouter, RoutingContext } from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { listen } from '../support/server';
import { eventually, filesIn, tempFolder } from './support';

// Its own test file: RestRouter.setBodyHandler changes global state for every app of the process.
class Files {
  @POST
  @Path('/files')
  files(@Context() ctx: RoutingContext) {
    return ctx.fileUploads().map((f) => ({ dir: path.dirname(f.path), size: f.size }));
  }
}

const upload = (url: string, bytes: number) => {
  const form = new FormData();
  form.append('f', new Blob([Buffer.alloc(bytes, 1)]), 'f.bin');
  return fetch(`${url}/files`, { method: 'POST', body: form });
};

test('RestRouter.setBodyHandler sets the uploads folder and limit of RestRouter apps; a builder app overrides them', async (t) => {
  const globalDir = tempFolder('global-uploads');
  const ownDir = tempFolder('own-uploads');
  RestRouter.setBodyHandler({ uploadsDirectory: globalDir, maxBodySize: 4096 });
  const plain = await listen(RestRouter.register(loadUws().App(), Files));
  const own = await listen(
    new RestBuilder()
      .bodyHandler({ uploadsDirectory: ownDir, maxBodySize: 64 * 1024 })
      .register(Files)
      .build(),
  );
  try {
    t.deepEqual(await (await upload(plain.url, 100)).json(), [{ dir: globalDir, size: 100 }]);
    t.is((await upload(plain.url, 8000)).status, 413, 'the global limit applies');
    t.deepEqual(await (await upload(own.url, 8000)).json(), [{ dir: ownDir, size: 8000 }]);
    t.true(await eventually(() => filesIn(globalDir).length === 0 && filesIn(ownDir).length === 0));

    const file = path.join(globalDir, 'a-file');
    fs.writeFileSync(file, '');
    t.throws(() => RestRouter.setBodyHandler({ uploadsDirectory: file }), {
      instanceOf: RegistrationError,
      message: /cannot be used/,
    });
    t.throws(() => RestRouter.setBodyHandler({ maxBodySize: -5 }), { instanceOf: RegistrationError });
    t.deepEqual(
      await (await upload(plain.url, 10)).json(),
      [{ dir: globalDir, size: 10 }],
      'a refused setting leaves the previous ones',
    );
  } finally {
    plain.close();
    own.close();
  }
});
