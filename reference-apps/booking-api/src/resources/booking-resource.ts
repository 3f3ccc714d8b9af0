import { BodyParam, Consumes, Context, DefaultValue, GET, Path, PathParam, POST, Produces, PUT, QueryParam, Response } from 'rest.uws';
import type { BookingService } from '../domain/booking-service';
import type { Booking, BookingCreateResponse, PaginationWrapper } from '../domain/booking';
import { API_PREFIX, DEFAULT_LIMIT } from '../domain/pagination';
import { AuthenticatedPartner } from '../http/authenticated-partner';
import { PublicBaseUrl } from '../http/public-base-url';
import { CreateBookingRequestDto } from './dto/create-booking-request.dto';
import { CaptureBookingRequestDto } from './dto/capture-booking-request.dto';

/** RFC 9745 `Deprecation` date of `POST /booking/create`: deprecated since this service's first release. */
export const LEGACY_CREATE_DEPRECATED_AT = Date.UTC(2025, 0, 1);

/**
 * The partner booking API: create, capture and read bookings. Thin on purpose: arguments in, one call to
 * the booking rules, the result out. Authentication, errors and links come from the app (see app.ts).
 */
@Path(`${API_PREFIX}/booking`)
@Produces('application/json')
export class BookingResource {
  constructor(private readonly bookings: BookingService) {}

  /** The partner's bookings, oldest first, in pages with absolute links. */
  @GET
  @Path('/')
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
  get(@Context() partner: AuthenticatedPartner, @PathParam('id') id: string): Promise<Booking> {
    return this.bookings.get(partner, id);
  }

  /** Creates an UNCAPTURED booking: 201 with its Location. */
  @POST
  @Path('/')
  @Consumes('application/json')
  async create(
    @Context() partner: AuthenticatedPartner,
    @Context() base: PublicBaseUrl,
    @BodyParam body: CreateBookingRequestDto,
  ): Promise<Response<Booking>> {
    const booking = await this.bookings.create(partner, body);
    return Response.created(`${base.value}${API_PREFIX}/booking/${booking.bookingId}`).entity(booking).build();
  }

  /** Captures (status PENDING with partnerReferenceId); the same capture again answers the booking as it is. */
  @PUT
  @Path('/{id}')
  @Consumes('application/json')
  capture(
    @Context() partner: AuthenticatedPartner,
    @PathParam('id') id: string,
    @BodyParam body: CaptureBookingRequestDto,
  ): Promise<Booking> {
    return this.bookings.capture(partner, id, body);
  }

  /** Deprecated: the same booking as POST /booking, answered as {itineraryId, price}, pointing at its successor. */
  @POST
  @Path('/create')
  @Consumes('application/json')
  async createLegacy(
    @Context() partner: AuthenticatedPartner,
    @Context() base: PublicBaseUrl,
    @BodyParam body: CreateBookingRequestDto,
  ): Promise<Response<BookingCreateResponse>> {
    const created = await this.bookings.createLegacy(partner, body);
    return Response.ok(created)
      .header('Deprecation', `@${Math.floor(LEGACY_CREATE_DEPRECATED_AT / 1000)}`)
      .header('Link', `<${base.value}${API_PREFIX}/booking>; rel="successor-version"`)
      .build();
  }
}
