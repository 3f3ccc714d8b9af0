import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  CatchWith,
  GET,
  Path,
  PathParam,
  PermitAll,
  Produces,
  SkipRateLimit,
} from 'rest.uws';
import { BookingService } from '../domain/booking-service';
import { CustomerPageErrorHandler } from './customer-page-error-handler';
import { ticketPage } from './pages/ticket-page';
import { voucherPage } from './pages/voucher-page';

/**
 * The pages behind the voucherUrl and ticket urls of a fulfilled booking. Customers open them without an API key:
 * the random token in the link is the secret (@PermitAll). Errors are pages too (@CatchWith). Not rate limited: the
 * partner API's limit is per API key, and customers have none (counted by address, every customer behind one proxy
 * would share a bucket unless the proxy is trusted); an unguessable token is not worth a flood to guess.
 */
@Path('/')
@PermitAll
@SkipRateLimit()
@Produces('text/html; charset=utf-8')
@CatchWith(CustomerPageErrorHandler)
@ApiTags('Customer pages')
@ApiResponse(404, {
  type: String,
  description: 'An HTML page: the link is unknown, or the booking is not fulfilled yet',
})
export class CustomerPagesResource {
  constructor(private readonly bookings: BookingService) {}

  @GET
  @Path('/voucher/{token}')
  @ApiOperation({ summary: 'The voucher of a fulfilled booking (its voucherUrl), as an HTML page; no API key' })
  @ApiResponse(200, { type: String, description: 'HTML page' })
  async voucher(@PathParam('token') token: string): Promise<string> {
    return voucherPage(await this.bookings.getByVoucherToken(token));
  }

  @GET
  @Path('/ticket/{publicId}')
  @ApiOperation({ summary: 'One ticket of a fulfilled booking (its url), as an HTML page; no API key' })
  @ApiResponse(200, { type: String, description: 'HTML page' })
  async ticket(@PathParam('publicId') publicId: string): Promise<string> {
    const { ticket, booking } = await this.bookings.getByTicket(publicId);
    return ticketPage(ticket, booking);
  }
}
