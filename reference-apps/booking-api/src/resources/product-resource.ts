import { Context, DefaultValue, GET, Path, PathParam, Produces, QueryParam } from 'rest.uws';
import type { CatalogueService } from '../domain/catalogue-service';
import type { Product } from '../domain/catalogue';
import type { PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT, pageOf, parsePaging } from '../domain/pagination';
import { PublicBaseUrl } from '../http/public-base-url';

/** The catalogue a partner reads before booking: products with their variants and input fields. */
@Path(`${API_PREFIX}/product`)
@Produces('application/json')
export class ProductResource {
  constructor(private readonly catalogue: CatalogueService) {}

  @GET
  @Path('/')
  async list(
    @Context() base: PublicBaseUrl,
    @QueryParam('offset') @DefaultValue('0') offset: string,
    @QueryParam('limit') @DefaultValue(DEFAULT_LIMIT) limit: string,
  ): Promise<PaginationWrapper<Product>> {
    const paging = parsePaging(offset, limit);
    const products = await this.catalogue.listProducts();
    const page = products.slice(paging.offset, paging.offset + paging.limit);
    return pageOf(page, paging, products.length, `${base.value}${API_PREFIX}/product`);
  }

  @GET
  @Path('/{id}')
  get(@PathParam('id') id: string): Promise<Product> {
    return this.catalogue.getProduct(id);
  }
}
