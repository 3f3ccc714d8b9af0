import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  Context,
  DefaultValue,
  GET,
  Path,
  PathParam,
  Produces,
  QueryParam,
} from 'rest.uws';
import { CatalogueService } from '../domain/catalogue-service';
import type { Product } from '../domain/catalogue';
import type { PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT, pageOf, parsePaging } from '../domain/pagination';
import { PublicBaseUrl } from './public-base-url';
import { apiError } from './dto/api-error.dto';
import { ProductDto, ProductPageDto } from './dto/catalogue.dto';

/** The catalogue a partner reads before booking: products with their variants and input fields. */
@Path(`${API_PREFIX}/product`)
@Produces('application/json')
@ApiTags('Catalogue')
@ApiResponse(400, apiError('An invalid paging parameter (E_INVALID_ARGUMENT)'))
@ApiResponse(401, apiError('No API key, or an unknown or revoked one (E_UNAUTHORIZED)'))
@ApiResponse(406, apiError('The Accept header excludes application/json (E_NOT_ACCEPTABLE)'))
export class ProductResource {
  constructor(private readonly catalogue: CatalogueService) {}

  @GET
  @Path('/')
  @ApiOperation({ summary: 'Products with their variants and the input fields a booking needs' })
  @ApiResponse(200, { type: ProductPageDto })
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
  @ApiOperation({ summary: 'One product with its variants' })
  @ApiResponse(200, { type: ProductDto })
  @ApiResponse(404, apiError('No such product (E_NOT_FOUND)'))
  get(@PathParam('id') id: string): Promise<Product> {
    return this.catalogue.getProduct(id);
  }
}
