import { timingSafeEqual, createHash } from 'node:crypto';
import { Consumes, Context, DELETE, GET, HeaderParam, HttpServerResponse, POST, PUT, Path, PathParam, BodyParam, Response, WebApplicationException } from 'rest.uws';
import type { ContentService } from '../content-service';
import { AccessError } from '../schemas/access-store';
import { expandScope, ScopeError } from '../schemas/scope';

/** Field types the admin API edits; relations and matrix blocks go through the content import. */
const EDITABLE_FIELD_TYPES = new Set(['PlainText', 'RichText', 'Number', 'Date', 'Lightswitch']);

/**
 * The admin REST API for schemas, tokens and simple content edits, behind its own key (`X-Admin-Key`). Without a configured key the
 * API answers 404, so an unconfigured server exposes nothing. Scopes take the same shorthand as the CLI.
 */
export function adminResource(service: ContentService, adminKey: string | null): object {
  const expected = adminKey ? createHash('sha256').update(adminKey).digest() : null;
  const check = (key: string | undefined) => {
    if (!expected) throw new WebApplicationException('The admin API is not enabled (set CONTENT_GRAPHQL_ADMIN_KEY)', 404, { code: 'CG_ADMIN_DISABLED' });
    if (!key) throw new WebApplicationException('Missing X-Admin-Key header', 401, { code: 'CG_ADMIN_KEY_MISSING' });
    if (!timingSafeEqual(createHash('sha256').update(key).digest(), expected)) throw new WebApplicationException('Invalid X-Admin-Key header', 403, { code: 'CG_ADMIN_KEY_INVALID' });
  };
  const guard = async <T>(key: string | undefined, action: () => Promise<T>): Promise<T> => {
    check(key);
    try {
      return await action();
    } catch (error) {
      if (error instanceof AccessError) throw new WebApplicationException(error.message, error.status, { code: 'CG_ACCESS' });
      if (error instanceof ScopeError) throw new WebApplicationException(error.message, 400, { code: 'CG_SCOPE' });
      throw error;
    }
  };
  const scopeOf = async (body: Record<string, unknown>) => {
    if (!Array.isArray(body.scope) || body.scope.some((s) => typeof s !== 'string')) throw new WebApplicationException('"scope" must be a list of strings, e.g. ["sections.news", "volumes.images"]', 400, { code: 'CG_SCOPE' });
    return expandScope(body.scope as string[], await service.store.catalog());
  };
  /** A JSON body that is an object: `null`, `true` or a list would otherwise pass as an empty edit (or throw). */
  const objectOf = (body: unknown): Record<string, unknown> => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new WebApplicationException('The body must be a JSON object', 400, { code: 'CG_BODY' });
    return body as Record<string, unknown>;
  };
  const idOf = (text: string) => {
    if (!/^\d+$/.test(text)) throw new WebApplicationException(`Invalid id "${text}"`, 400, { code: 'CG_BAD_ID' });
    return Number(text);
  };

  /** Checks an element edit before anything is written: known element, text title, known scalar fields of its layout. */
  const elementEdit = async (id: number, body: Record<string, unknown>) => {
    const element = await service.store.db.selectFrom('elements').select('id').where('id', '=', id).executeTakeFirst();
    if (!element) throw new WebApplicationException(`No element ${id}`, 404, { code: 'CG_NO_ELEMENT' });
    if (body.title !== undefined && (typeof body.title !== 'string' || body.title.trim() === '')) throw new WebApplicationException('"title" must be a non-empty string', 400, { code: 'CG_TITLE' });
    const fields = body.fields ?? {};
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new WebApplicationException('"fields" must be an object of field handles and values', 400, { code: 'CG_FIELDS' });
    const { layoutFields } = await service.store.layoutOfElement(id);
    for (const handle of Object.keys(fields)) {
      const field = layoutFields.find((f) => f.handle === handle);
      if (!field) throw new WebApplicationException(`Element ${id} has no field "${handle}"; its fields: ${layoutFields.map((f) => f.handle).join(', ') || 'none'}`, 400, { code: 'CG_FIELDS' });
      if (!EDITABLE_FIELD_TYPES.has(field.type)) throw new WebApplicationException(`Field "${handle}" (${field.type}) cannot be edited here; use the content import`, 400, { code: 'CG_FIELDS' });
    }
    return { title: body.title as string | undefined, fields: fields as Record<string, unknown> };
  };

  @Path('/admin')
  class AdminResource {
    /** Edits an element's title and plain field values (content changes invalidate every instance's result cache). */
    @PUT @Path('/elements/{id}') @Consumes('application/json')
    updateElement(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @BodyParam() body: Record<string, unknown>, @Context() res: HttpServerResponse) {
      return guard(key, async () => {
        const elementId = idOf(id);
        const edit = await elementEdit(elementId, objectOf(body));
        try {
          await service.store.updateFields(elementId, edit.fields, edit.title);
        } catch (error) {
          if (error instanceof Error && /^Field "|^Invalid date/.test(error.message)) throw new WebApplicationException(error.message, 400, { code: 'CG_FIELDS' });
          throw error;
        }
        res.setStatusCode(204);
      });
    }

    @POST @Path('/elements/{id}/enable')
    enableElement(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @Context() res: HttpServerResponse) {
      return guard(key, async () => { await elementEdit(idOf(id), {}); await service.store.setEnabled(idOf(id), true); res.setStatusCode(204); });
    }

    @POST @Path('/elements/{id}/disable')
    disableElement(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @Context() res: HttpServerResponse) {
      return guard(key, async () => { await elementEdit(idOf(id), {}); await service.store.setEnabled(idOf(id), false); res.setStatusCode(204); });
    }

    @GET @Path('/schemas')
    schemas(@HeaderParam('x-admin-key', { optional: true }) key: string) {
      return guard(key, () => service.access.listSchemas());
    }

    @POST @Path('/schemas') @Consumes('application/json')
    createSchema(@HeaderParam('x-admin-key', { optional: true }) key: string, @BodyParam() body: Record<string, unknown>) {
      return guard(key, async () => {
        body = objectOf(body);
        if (typeof body.name !== 'string') throw new WebApplicationException('"name" must be a string', 400, { code: 'CG_NAME' });
        const schema = await service.access.createSchema(body.name, await scopeOf(body));
        return Response.status(201).header('Location', `/admin/schemas/${schema.id}`).entity(schema).build();
      });
    }

    @PUT @Path('/schemas/{id}/scope') @Consumes('application/json')
    setScope(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @BodyParam() body: Record<string, unknown>) {
      return guard(key, async () => service.access.updateSchemaScope(idOf(id), await scopeOf(objectOf(body))));
    }

    @DELETE @Path('/schemas/{id}')
    deleteSchema(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @Context() res: HttpServerResponse) {
      return guard(key, async () => { await service.access.deleteSchema(idOf(id)); res.setStatusCode(204); });
    }

    @GET @Path('/tokens')
    tokens(@HeaderParam('x-admin-key', { optional: true }) key: string) {
      return guard(key, () => service.access.listTokens());
    }

    @POST @Path('/tokens') @Consumes('application/json')
    createToken(@HeaderParam('x-admin-key', { optional: true }) key: string, @BodyParam() body: Record<string, unknown>) {
      return guard(key, async () => {
        body = objectOf(body);
        if (typeof body.name !== 'string') throw new WebApplicationException('"name" must be a string', 400, { code: 'CG_NAME' });
        if (typeof body.schemaId !== 'number') throw new WebApplicationException('"schemaId" must be a number', 400, { code: 'CG_SCHEMA_ID' });
        if (body.expiryDate !== undefined && body.expiryDate !== null && typeof body.expiryDate !== 'string') throw new WebApplicationException('"expiryDate" must be a date string or null', 400, { code: 'CG_EXPIRY' });
        const { token, record } = await service.access.createToken({ name: body.name, schemaId: body.schemaId, expiryDate: (body.expiryDate as string | null | undefined) ?? null, enabled: body.enabled !== false });
        return Response.status(201).header('Location', `/admin/tokens/${record.id}`).entity({ ...record, token }).build();
      });
    }

    @POST @Path('/tokens/{id}/enable')
    enable(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string) {
      return guard(key, () => service.access.setTokenEnabled(idOf(id), true));
    }

    @POST @Path('/tokens/{id}/disable')
    disable(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string) {
      return guard(key, () => service.access.setTokenEnabled(idOf(id), false));
    }

    @DELETE @Path('/tokens/{id}')
    deleteToken(@HeaderParam('x-admin-key', { optional: true }) key: string, @PathParam('id') id: string, @Context() res: HttpServerResponse) {
      return guard(key, async () => { await service.access.deleteToken(idOf(id)); res.setStatusCode(204); });
    }
  }
  return new AdminResource();
}
