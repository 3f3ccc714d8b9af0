import { RestBuilder } from 'rest.uws';
import type { BookingService } from './domain/booking-service';
import type { CatalogueService } from './domain/catalogue-service';
import type { PartnerKeys } from './domain/partner-keys';
import { BookingExceptionHandler } from './http/booking-exception-handler';
import { PartnerApiKeyAuthentication } from './http/partner-authentication';
import { PublicBaseUrl } from './http/public-base-url';
import { BookingResource } from './resources/booking-resource';
import { CustomerPagesResource } from './resources/customer-pages-resource';
import { InventoryResource } from './resources/inventory-resource';
import { ProductResource } from './resources/product-resource';

/** Largest request body: a booking of 50 customers with their input fields fits many times over. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface BookingServices {
  bookings: BookingService;
  catalogue: CatalogueService;
  partnerKeys: PartnerKeys;
}

export interface BookingAppOptions {
  /** Base of absolute links; when unset, each request's Host decides (see PublicBaseUrl). */
  publicBaseUrl?: string;
  /** The server's own address, for requests without a usable Host header. */
  fallbackBaseUrl: () => string;
}

/**
 * The booking API on rest.uws: REST classes, the partner's identity from its API key, absolute links, and one
 * error envelope for everything. `build()` it and listen (see booking-server.ts). A `builder` given in may carry
 * settings of its own (they come first, e.g. a provider that refuses requests while the server stops).
 */
export function bookingApp(services: BookingServices, options: BookingAppOptions, builder = new RestBuilder()): RestBuilder {
  return builder
    .register(
      new BookingResource(services.bookings),
      new ProductResource(services.catalogue),
      new InventoryResource(services.catalogue),
      new CustomerPagesResource(services.bookings),
    )
    // Every route needs a partner's API key, unless it says @PermitAll (the customer pages).
    .authenticateWith(new PartnerApiKeyAuthentication(services.partnerKeys))
    .addProvider(PublicBaseUrl, (request) => PublicBaseUrl.of(request, options.publicBaseUrl, options.fallbackBaseUrl))
    .errorHandler(BookingExceptionHandler)
    .bodyHandler({ maxBodySize: MAX_BODY_BYTES });
}
