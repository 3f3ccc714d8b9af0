import { Context, DefaultValue, GET, Path, Produces, QueryParam } from 'rest.uws';
import type { CatalogueService } from '../domain/catalogue-service';
import type { InventorySlot } from '../domain/catalogue';
import type { PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT } from '../domain/pagination';
import { PublicBaseUrl } from '../http/public-base-url';

/** Inventory slots of a variant: start, seats left (or unlimited), prices per person type, currency. */
@Path(`${API_PREFIX}/inventory`)
@Produces('application/json')
export class InventoryResource {
  constructor(private readonly catalogue: CatalogueService) {}

  /** `variantId` is required; the window defaults to the next 30 days in the product's time zone. */
  @GET
  @Path('/')
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
