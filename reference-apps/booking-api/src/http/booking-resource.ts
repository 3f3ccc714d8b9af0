import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  BodyParam,
  Consumes,
  Context,
  DefaultValue,
  GET,
  Path,
  PathParam,
  POST,
  Produces,
  PUT,
  QueryParam,
  Response,
  Valid,
} from 'rest.uws';
import { BookingService } from '../domain/booking-service';
import type { Booking, BookingCreateResponse, PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT } from '../domain/pagination';
import { AuthenticatedPartner } from './authenticated-partner';
import { PublicBaseUrl } from './public-base-url';
import { apiError } from './dto/api-error.dto';
import { BookingCreateResponseDto, BookingDto, BookingPageDto } from './dto/booking.dto';
import { CaptureBookingRequestDto } from './dto/capture-booking-request.dto';
import { CreateBookingRequestDto, toCreateBookingRequest } from './dto/create-booking-request.dto';

/** RFC 9745 `Deprecation` date of `POST /booking/create`: deprecated since this service's first release. */
export const LEGACY_CREATE_DEPRECATED_AT = Date.UTC(2025, 0, 1);

/**
 * The partner booking API: create, capture and read bookings. Thin on purpose: arguments in, one call to
 * the booking rules, the result out. The app (app.ts) adds the partner's authentication, validation of the @Valid
 * bodies, the error envelope and injection of the BookingService.
 */
@Path(`${API_PREFIX}/booking`)
@Produces('application/json')
@ApiTags('Bookings')
@ApiResponse(400, apiError('A missing or invalid parameter (E_MISSING_PARAMETER, E_INVALID_ARGUMENT)'))
@ApiResponse(401, apiError('No API key, or an unknown or revoked one (E_UNAUTHORIZED)'))
@ApiResponse(406, apiError('The Accept header excludes application/json (E_NOT_ACCEPTABLE)'))
export class BookingResource {
  constructor(private readonly bookings: BookingService) {}

  @GET
  @Path('/')
  @ApiOperation({ summary: "The partner's bookings, oldest first, with absolute links to the next and previous pages" })
  @ApiResponse(200, { type: BookingPageDto })
  list(
    @Context() partner: AuthenticatedPartner,
    @Context() base: PublicBaseUrl,
    @QueryParam('offset') @DefaultValue('0') offset: string,
    @QueryParam('limit') @DefaultValue(DEFAULT_LIMIT) limit: string,
  ): Promise<PaginationWrapper<Booking>> {
    return this.bookings.list(partner, { offset, limit }, base.value);
  }

  @GET
  @Path('/{id}')
  @ApiOperation({ summary: 'One booking (another partner\'s is "not found")' })
  @ApiResponse(200, { type: BookingDto })
  @ApiResponse(404, apiError('No booking of this partner has this id (E_NOT_FOUND)'))
  get(@Context() partner: AuthenticatedPartner, @PathParam('id') id: string): Promise<Booking> {
    return this.bookings.get(partner, id);
  }

  @POST
  @Path('/')
  @Consumes('application/json')
  @ApiOperation({ summary: 'Creates a booking in state UNCAPTURED; its seats are held for one hour until captured' })
  @ApiResponse(201, { type: BookingDto, description: 'Created; Location names the booking' })
  @ApiResponse(409, apiError('Fewer seats left than customers (E_SOLD_OUT)'))
  @ApiResponse(413, apiError('The body is larger than 256 KiB (E_PAYLOAD_TOO_LARGE)'))
  @ApiResponse(415, apiError('The body is not application/json (E_UNSUPPORTED_MEDIA_TYPE)'))
  async create(
    @Context() partner: AuthenticatedPartner,
    @Context() base: PublicBaseUrl,
    @Valid @BodyParam body: CreateBookingRequestDto,
  ): Promise<Response<Booking>> {
    const booking = await this.bookings.book(partner, toCreateBookingRequest(body));
    return Response.created(`${base.value}${API_PREFIX}/booking/${booking.bookingId}`).entity(booking).build();
  }

  @PUT
  @Path('/{id}')
  @Consumes('application/json')
  @ApiOperation({
    summary:
      'Captures a booking (status PENDING with partnerReferenceId); the same capture again answers the booking as it is',
  })
  @ApiResponse(200, { type: BookingDto })
  @ApiResponse(404, apiError('No booking of this partner has this id (E_NOT_FOUND)'))
  @ApiResponse(
    409,
    apiError(
      'Captured already with another reference, a status other than PENDING, or the hour is over (E_INVALID_STATE_TRANSITION, E_CAPTURE_TIMEOUT)',
    ),
  )
  @ApiResponse(413, apiError('The body is larger than 256 KiB (E_PAYLOAD_TOO_LARGE)'))
  @ApiResponse(415, apiError('The body is not application/json (E_UNSUPPORTED_MEDIA_TYPE)'))
  capture(
    @Context() partner: AuthenticatedPartner,
    @PathParam('id') id: string,
    @Valid @BodyParam body: CaptureBookingRequestDto,
  ): Promise<Booking> {
    return this.bookings.captureWith(partner, id, body);
  }

  @POST
  @Path('/create')
  @Consumes('application/json')
  @ApiOperation({
    summary: 'Deprecated: use POST /booking. The same booking, answered as {itineraryId, price}',
    deprecated: true,
  })
  @ApiResponse(200, {
    type: BookingCreateResponseDto,
    description: 'Created; Deprecation and Link rel="successor-version" headers',
  })
  @ApiResponse(409, apiError('Fewer seats left than customers (E_SOLD_OUT)'))
  @ApiResponse(413, apiError('The body is larger than 256 KiB (E_PAYLOAD_TOO_LARGE)'))
  @ApiResponse(415, apiError('The body is not application/json (E_UNSUPPORTED_MEDIA_TYPE)'))
  async createLegacy(
    @Context() partner: AuthenticatedPartner,
    @Context() base: PublicBaseUrl,
    @Valid @BodyParam body: CreateBookingRequestDto,
  ): Promise<Response<BookingCreateResponse>> {
    const created = await this.bookings.bookLegacy(partner, toCreateBookingRequest(body));
    return Response.ok(created)
      .header('Deprecation', `@${Math.floor(LEGACY_CREATE_DEPRECATED_AT / 1000)}`)
      .header('Link', `<${base.value}${API_PREFIX}/booking>; rel="successor-version"`)
      .build();
  }
}
