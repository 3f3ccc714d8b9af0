import test from 'ava';
import * as fs from 'node:fs';
import {
  Context,
  FileResponseWriter,
  FormParam,
  GET,
  inject,
  Path,
  PathParam,
  POST,
  ResponseWriter,
  RestBuilder,
  RoutingContext,
} from '../../src/index';
import { makeStaticFixture } from '../static/fixtures';
import { eventually, filesIn, multipartBody, tempFolder } from './support';

// inject() runs the same adapter code without a port: upload and file routes can be tested that way too.
const fixture = makeStaticFixture();
test.after.always(() => fixture.cleanup());

class Routes {
  @POST
  @Path('/upload')
  upload(@FormParam('note') note: string, @Context() ctx: RoutingContext) {
    return { note, files: ctx.fileUploads().map((f) => ({ ...f.toJSON(), content: fs.readFileSync(f.path, 'utf8') })) };
  }

  @GET
  @Path('/file/{name}')
  @ResponseWriter(FileResponseWriter)
  file(@PathParam('name') name: string) {
    return name;
  }
}

test('inject() sends a multipart upload and a file route through the app without a network', async (t) => {
  const uploads = tempFolder('inject-uploads');
  const app = new RestBuilder().bodyHandler({ uploadsDirectory: uploads }).staticFiles(fixture.root).register(Routes);
  const body = multipartBody('xyz', [
    { name: 'note', content: 'hello' },
    { name: 'doc', fileName: 'doc.txt', type: 'text/plain', content: 'file content' },
  ]);
  const r = await inject(app, {
    method: 'POST',
    url: '/upload',
    headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    body,
  });
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), {
    note: 'hello',
    files: [{ fieldName: 'doc', fileName: 'doc.txt', contentType: 'text/plain', size: 12, content: 'file content' }],
  });
  t.true(await eventually(() => filesIn(uploads).length === 0));

  const file = await inject(app, '/file/data.bin');
  t.is(file.statusCode, 200);
  t.true(file.rawBody.equals(fixture.binary));
});
