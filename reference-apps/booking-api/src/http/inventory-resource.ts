import { ApiOperation, ApiResponse, ApiTags, Context, DefaultValue, GET, Path, Produces, QueryParam } from 'rest.uws';
import { CatalogueService } from '../domain/catalogue-service';
import type { InventorySlot } from '../domain/catalogue';
import type { PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT } from '../domain/pagination';
import { PublicBaseUrl } from './public-base-url';
import { apiError } from './dto/api-error.dto';
import { InventoryPageDto } from './dto/catalogue.dto';

/** Inventory slots of a variant: start, seats left (or unlimited), prices per person type, currency. */
@Path(`${API_PREFIX}/inventory`)
@Produces('application/json')
@ApiTags('Catalogue')
@ApiResponse(400, apiError('variantId missing, or an invalid date-time or paging parameter'))
@ApiResponse(401, apiError('No API key, or an unknown or revoked one (E_UNAUTHORIZED)'))
@ApiResponse(406, apiError('The Accept header excludes application/json (E_NOT_ACCEPTABLE)'))
export class InventoryResource {
  constructor(private readonly catalogue: CatalogueService) {}

  @GET
  @Path('/')
  @ApiOperation({ summary: "Slots of a variant by start time; by default the next 30 days in the product's time zone" })
  @ApiResponse(200, { type: InventoryPageDto })
  @ApiResponse(404, apiError('No such variant (E_NOT_FOUND)'))
  list(
    @Context() base: PublicBaseUrl,
    @QueryParam('variantId') variantId: string,
    @QueryParam('startDateTime', { optional: true }) startDateTime: string | undefined,
    @QueryParam('endDateTime', { optional: true }) endDateTime: string | undefined,
    @QueryParam('offset') @DefaultValue('0') offset: string,
    @QueryParam('limit') @DefaultValue(DEFAULT_LIMIT) limit: string,
  ): Promise<PaginationWrapper<InventorySlot>> {
    return this.catalogue.listInventory({ variantId, startDateTime, endDateTime, offset, limit }, base.value);
  }
}
