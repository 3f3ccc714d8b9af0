import test from 'ava';
import {
  FileResponseWriter,
  GET,
  Path,
  PathParam,
  ResponseWriter,
  RestBuilder,
  TsyringeInjectionProvider,
} from '../../src/index';
import { container } from 'tsyringe'; // after the framework, which loads reflect-metadata
import { listen } from '../support/server';
import { makeStaticFixture } from './fixtures';

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

test('FileResponseWriter and folder mounts work when components come from a tsyringe container', async (t) => {
  const app = new RestBuilder()
    .injectWith(new TsyringeInjectionProvider(container.createChildContainer()))
    .staticFiles(fixture.root)
    .staticFiles('/static', fixture.root)
    .register(Files)
    .build();
  const server = await listen(app);
  try {
    t.is(await (await fetch(`${server.url}/f/app.js`)).text(), 'console.log("app");\n');
    t.is(await (await fetch(`${server.url}/static/sub/page.html`)).text(), '<p>page</p>');
  } finally {
    server.close();
  }
});
