import {
  ApiExclude,
  Context,
  GET,
  HeaderParam,
  HttpServerResponse,
  Path,
  PathParam,
  PermitAll,
  errors,
} from '../../plugin';
import { etagOf, type SwaggerUiDist } from './swagger-ui-assets';
import { initializerScript, oauth2RedirectHtml, pageHtml, PAGE_CSP, type PageLocation } from './swagger-ui-page';

/** A text the plugin made, sent with its entity tag. */
interface Generated {
  readonly body: string;
  readonly etag: string;
}

function generated(body: string): Generated {
  return { body, etag: etagOf(body) };
}

/** A comma-separated If-None-Match names our tag (weak comparison: `W/` ignored), or is `*`. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Ends with 304 when the client has this version, else with the body. */
function send(
  response: HttpServerResponse,
  ifNoneMatch: string | undefined,
  body: Buffer | string,
  type: string,
  etag: string,
  cacheControl: string,
): void {
  response.putHeader('ETag', etag).putHeader('Cache-Control', cacheControl);
  if (notModified(ifNoneMatch, etag)) {
    response.setStatusCode(304).end();
    return;
  }
  response.putHeader('Content-Type', type).end(body);
}

/** The page and the start script change with the app's configuration: the browser asks again each time (304 when unchanged). */
const REVALIDATE = 'no-cache';
/** Asset URLs carry the swagger-ui-dist version: a URL always names the same bytes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves Swagger UI under one path. Public (`@PermitAll`) and left out of the OpenAPI document (`@ApiExclude`).
 * Each app gets a subclass carrying its path.
 */
@PermitAll
@ApiExclude
export class SwaggerUiResource {
  private readonly page: Generated;
  private readonly initializer: Generated;
  private readonly oauth2Redirect: Generated;

  constructor(
    private readonly dist: SwaggerUiDist,
    at: PageLocation,
    title: string,
    config: Readonly<Record<string, unknown>>,
  ) {
    this.page = generated(pageHtml(at, title));
    this.initializer = generated(initializerScript(at, config));
    this.oauth2Redirect = generated(oauth2RedirectHtml(at));
  }

  @GET
  @Path('/')
  index(
    @Context() response: HttpServerResponse,
    @HeaderParam('if-none-match', { optional: true }) ifNoneMatch?: string,
  ): void {
    response.putHeader('Content-Security-Policy', PAGE_CSP);
    send(response, ifNoneMatch, this.page.body, 'text/html; charset=utf-8', this.page.etag, REVALIDATE);
  }

  @GET
  @Path('/swagger-initializer.js')
  start(
    @Context() response: HttpServerResponse,
    @HeaderParam('if-none-match', { optional: true }) ifNoneMatch?: string,
  ): void {
    send(
      response,
      ifNoneMatch,
      this.initializer.body,
      'text/javascript; charset=utf-8',
      this.initializer.etag,
      REVALIDATE,
    );
  }

  @GET
  @Path('/oauth2-redirect.html')
  redirect(
    @Context() response: HttpServerResponse,
    @HeaderParam('if-none-match', { optional: true }) ifNoneMatch?: string,
  ): void {
    response.putHeader('Content-Security-Policy', PAGE_CSP);
    send(
      response,
      ifNoneMatch,
      this.oauth2Redirect.body,
      'text/html; charset=utf-8',
      this.oauth2Redirect.etag,
      REVALIDATE,
    );
  }

  @GET
  @Path('/assets/{version}/{name}')
  async asset(
    @PathParam('version') version: string,
    @PathParam('name') name: string,
    @Context() response: HttpServerResponse,
    @HeaderParam('if-none-match', { optional: true }) ifNoneMatch?: string,
  ): Promise<void> {
    const pending = version === this.dist.version ? this.dist.asset(name) : undefined;
    if (pending === undefined) throw errors.RU_ERR_FILE_NOT_FOUND(`No Swagger UI file ${name} of version ${version}`);
    const asset = await pending;
    if (response.aborted()) return;
    send(response, ifNoneMatch, asset.body, asset.type, asset.etag, IMMUTABLE);
  }
}
