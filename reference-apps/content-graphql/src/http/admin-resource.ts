import {
  Authenticate, BodyParam, CatchWith, Consumes, Context, DELETE, GET, HttpServerResponse, Inject, POST, PUT, Path, PathParam, Response, RolesAllowed,
} from 'rest.uws';
import { AdminService } from '../domain/admin-service';
import { AdminErrorHandler } from './admin-errors';
import { AdminKeyAuthentication } from './admin-key-authentication';

/**
 * The admin REST API for schemas, tokens and simple content edits: arguments in, an AdminService call, the result
 * out. The key check is the framework's authentication (AdminKeyAuthentication), the service comes by injection, and
 * the domain's refusals become HTTP errors in AdminErrorHandler.
 */
@Path('/admin')
@Inject
@Authenticate(AdminKeyAuthentication)
@RolesAllowed('admin')
@CatchWith(AdminErrorHandler)
export class AdminResource {
  constructor(private readonly admin: AdminService) {}

  /** Edits an element's title and plain field values: 204. */
  @PUT @Path('/elements/{id}') @Consumes('application/json')
  async updateElement(@PathParam('id') id: string, @BodyParam() body: unknown, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.editElement(id, body);
    res.setStatusCode(204);
  }

  @POST @Path('/elements/{id}/enable')
  async enableElement(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.setElementEnabled(id, true);
    res.setStatusCode(204);
  }

  @POST @Path('/elements/{id}/disable')
  async disableElement(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.setElementEnabled(id, false);
    res.setStatusCode(204);
  }

  @GET @Path('/schemas')
  schemas() {
    return this.admin.listSchemas();
  }

  @POST @Path('/schemas') @Consumes('application/json')
  async createSchema(@BodyParam() body: unknown) {
    const schema = await this.admin.createSchema(body);
    return Response.status(201).header('Location', `/admin/schemas/${schema.id}`).entity(schema).build();
  }

  @PUT @Path('/schemas/{id}/scope') @Consumes('application/json')
  setScope(@PathParam('id') id: string, @BodyParam() body: unknown) {
    return this.admin.setSchemaScope(id, body);
  }

  @DELETE @Path('/schemas/{id}')
  async deleteSchema(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.deleteSchema(id);
    res.setStatusCode(204);
  }

  @GET @Path('/tokens')
  tokens() {
    return this.admin.listTokens();
  }

  /** 201 with the token's secret, shown this once. */
  @POST @Path('/tokens') @Consumes('application/json')
  async createToken(@BodyParam() body: unknown) {
    const token = await this.admin.createToken(body);
    return Response.status(201).header('Location', `/admin/tokens/${token.id}`).entity(token).build();
  }

  @POST @Path('/tokens/{id}/enable')
  enable(@PathParam('id') id: string) {
    return this.admin.setTokenEnabled(id, true);
  }

  @POST @Path('/tokens/{id}/disable')
  disable(@PathParam('id') id: string) {
    return this.admin.setTokenEnabled(id, false);
  }

  @DELETE @Path('/tokens/{id}')
  async deleteToken(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.deleteToken(id);
    res.setStatusCode(204);
  }
}
