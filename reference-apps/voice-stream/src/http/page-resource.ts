import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiExclude, GET, Path, Produces } from 'rest.uws';

/** The web page's folder (index.html, app.js, the AudioWorklet), next to src/ in the package. */
export const PUBLIC_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'public');

/** `GET /`: the live-caption page (its scripts and styles are served under /app/). */
@Path('/')
@ApiExclude
export class PageResource {
  private readonly page = readFileSync(path.join(PUBLIC_DIRECTORY, 'index.html'), 'utf8');

  @GET
  @Path('/')
  @Produces('text/html; charset=utf-8')
  index(): string {
    return this.page;
  }
}
