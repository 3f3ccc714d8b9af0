import test from 'ava';
import { FileResponseWriter, GET, Path, PathParam, ResponseWriter, RestBuilder, RestRouter } from '../../src/index';
import { listen } from '../support/server';
import { makeStaticFixture } from './fixtures';

// Its own test file: RestRouter.staticFiles changes global state for every app of the process.
const fixture = makeStaticFixture();
test.after.always(() => fixture.cleanup());

class Files {
  @GET
  @Path('/f/{name}')
  @ResponseWriter(FileResponseWriter)
  file(@PathParam('name') name: string) {
    return name;
  }
}

test('RestRouter.staticFiles(root) is the root of apps without their own; an app root overrides it', async (t) => {
  RestRouter.staticFiles(fixture.root);
  const global = await listen(new RestBuilder().register(Files).build());
  const local = await listen(new RestBuilder().staticFiles(`${fixture.root}/sub`).register(Files).build());
  try {
    t.is(await (await fetch(`${global.url}/f/app.js`)).text(), 'console.log("app");\n');
    t.is(await (await fetch(`${local.url}/f/page.html`)).text(), '<p>page</p>');
    t.is((await fetch(`${local.url}/f/app.js`)).status, 404);
  } finally {
    global.close();
    local.close();
  }
});
