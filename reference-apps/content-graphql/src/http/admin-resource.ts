import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  Authenticate,
  BodyParam,
  CatchWith,
  Consumes,
  Context,
  DELETE,
  GET,
  HttpServerResponse,
  Inject,
  POST,
  PUT,
  Path,
  PathParam,
  Response,
  RolesAllowed,
} from 'rest.uws';
import { AdminService } from '../domain/admin-service';
import { AdminErrorHandler } from './admin-errors';
import { AdminKeyAuthentication } from './admin-key-authentication';
import { CREATED_TOKEN, SCHEMA_RECORD, TOKEN_RECORD } from './openapi-schemas';

const BAD_ID = 'An id that is not a whole number, or a body the operation refuses (the message says which field)';
const NOT_FOUND = 'No such element, schema or token; or the admin API is not enabled (no CONTENT_GRAPHQL_ADMIN_KEY)';
const DISABLED = 'The admin API is not enabled (no CONTENT_GRAPHQL_ADMIN_KEY)';
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
@ApiTags('Admin')
@ApiResponse(401, 'No X-Admin-Key header')
@ApiResponse(403, 'A wrong X-Admin-Key')
export class AdminResource {
  constructor(private readonly admin: AdminService) {}

  /** Edits an element's title and plain field values: 204. */
  @PUT
  @Path('/elements/{id}')
  @Consumes('application/json')
  @ApiOperation({ summary: "Edits an element's title and plain field values: `{title?, fields?: {handle: value}}`" })
  @ApiResponse(204, 'Edited')
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  async updateElement(
    @PathParam('id') id: string,
    @BodyParam() body: unknown,
    @Context() res: HttpServerResponse,
  ): Promise<void> {
    await this.admin.editElement(id, body);
    res.setStatusCode(204);
  }

  @POST
  @Path('/elements/{id}/enable')
  @ApiOperation({ summary: 'Enables an element (it is read again by the API)' })
  @ApiResponse(204, 'Enabled')
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  async enableElement(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.setElementEnabled(id, true);
    res.setStatusCode(204);
  }

  @POST
  @Path('/elements/{id}/disable')
  @ApiOperation({ summary: 'Disables an element (the API no longer reads it)' })
  @ApiResponse(204, 'Disabled')
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  async disableElement(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.setElementEnabled(id, false);
    res.setStatusCode(204);
  }

  @GET
  @Path('/schemas')
  @ApiOperation({ summary: 'The GraphQL schemas (scopes), the public one included' })
  @ApiResponse(200, { schema: { type: 'array', items: SCHEMA_RECORD } })
  @ApiResponse(404, DISABLED)
  schemas() {
    return this.admin.listSchemas();
  }

  @POST
  @Path('/schemas')
  @Consumes('application/json')
  @ApiOperation({ summary: 'Creates a schema: `{name, scope: ["sections.news", ...]}`' })
  @ApiResponse(201, { schema: SCHEMA_RECORD, description: 'Created', headers: { Location: 'The new schema' } })
  @ApiResponse(400, 'A body the operation refuses: no name, a scope that is not a list of known sections, volumes...')
  @ApiResponse(404, DISABLED)
  @ApiResponse(409, 'A schema of that name exists already')
  async createSchema(@BodyParam() body: unknown) {
    const schema = await this.admin.createSchema(body);
    return Response.status(201).header('Location', `/admin/schemas/${schema.id}`).entity(schema).build();
  }

  @PUT
  @Path('/schemas/{id}/scope')
  @Consumes('application/json')
  @ApiOperation({ summary: "Replaces a schema's scope: `{scope: [...]}`" })
  @ApiResponse(200, { schema: SCHEMA_RECORD })
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  setScope(@PathParam('id') id: string, @BodyParam() body: unknown) {
    return this.admin.setSchemaScope(id, body);
  }

  @DELETE
  @Path('/schemas/{id}')
  @ApiOperation({ summary: 'Deletes a schema (its tokens stop working)' })
  @ApiResponse(204, 'Deleted')
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  @ApiResponse(409, 'The public schema cannot be deleted (disable its token instead)')
  async deleteSchema(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.deleteSchema(id);
    res.setStatusCode(204);
  }

  @GET
  @Path('/tokens')
  @ApiOperation({ summary: 'The tokens, without their secrets' })
  @ApiResponse(200, { schema: { type: 'array', items: TOKEN_RECORD } })
  @ApiResponse(404, DISABLED)
  tokens() {
    return this.admin.listTokens();
  }

  /** 201 with the token's secret, shown this once. */
  @POST
  @Path('/tokens')
  @Consumes('application/json')
  @ApiOperation({
    summary:
      'Creates a token for a schema: `{name, schemaId, expiryDate?, enabled?}`; its secret is in this answer only',
  })
  @ApiResponse(201, { schema: CREATED_TOKEN, description: 'Created', headers: { Location: 'The new token' } })
  @ApiResponse(400, 'A body the operation refuses: no name, no schemaId, an expiry date that is no date')
  @ApiResponse(404, 'No schema of that id; or the admin API is not enabled')
  @ApiResponse(409, 'A token of that name exists already, or the schema is the public one (it has no secret token)')
  async createToken(@BodyParam() body: unknown) {
    const token = await this.admin.createToken(body);
    return Response.status(201).header('Location', `/admin/tokens/${token.id}`).entity(token).build();
  }

  @POST
  @Path('/tokens/{id}/enable')
  @ApiOperation({ summary: 'Enables a token' })
  @ApiResponse(200, { schema: TOKEN_RECORD })
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  enable(@PathParam('id') id: string) {
    return this.admin.setTokenEnabled(id, true);
  }

  @POST
  @Path('/tokens/{id}/disable')
  @ApiOperation({ summary: 'Disables a token (requests with it are refused)' })
  @ApiResponse(200, { schema: TOKEN_RECORD })
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  disable(@PathParam('id') id: string) {
    return this.admin.setTokenEnabled(id, false);
  }

  @DELETE
  @Path('/tokens/{id}')
  @ApiOperation({ summary: 'Deletes a token' })
  @ApiResponse(204, 'Deleted')
  @ApiResponse(400, BAD_ID)
  @ApiResponse(404, NOT_FOUND)
  @ApiResponse(409, 'The public token cannot be deleted (disable it instead)')
  async deleteToken(@PathParam('id') id: string, @Context() res: HttpServerResponse): Promise<void> {
    await this.admin.deleteToken(id);
    res.setStatusCode(204);
  }
}
