import {
  ClassValidator,
  rateLimit,
  RestBuilder,
  swaggerUi,
  openTelemetry,
  TsyringeInjectionProvider,
  type Logger,
  type RateLimitKey,
} from 'rest.uws';
import { telemetryStarted } from 'app-support/telemetry';
import { rateLimitStoreOptions, useOperations, type AppRateLimit, type OperationsOptions } from 'app-support';
import { container as rootContainer } from 'tsyringe';
import { BookingService } from './domain/booking-service';
import { CatalogueService } from './domain/catalogue-service';
import { PartnerKeys } from './domain/partner-keys';
import { API_PREFIX } from './domain/pagination';
import { defaultLogger, LOGGER } from './http/app-logger';
import { BookingExceptionHandler } from './http/booking-exception-handler';
import { DatabaseOutageLog } from './http/database-outage-log';
import { PartnerApiKeyAuthentication } from './http/partner-authentication';
import { readApiKey } from './http/api-key-credentials';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from './config';
import { PublicBaseUrl } from './http/public-base-url';
import { BookingResource } from './http/booking-resource';
import { CustomerPagesResource } from './http/customer-pages-resource';
import { InventoryResource } from './http/inventory-resource';
import { ProductResource } from './http/product-resource';
import { openApiResourceAt } from './http/openapi-resource';

/** Largest request body: a booking of 50 customers with their input fields fits many times over. */
export const MAX_BODY_BYTES = 256 * 1024;
/** Where the OpenAPI document of the API is served (public, like the partner API's docs). */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** Where Swagger UI shows that document (public too): partners read the API and try it with their key. */
export const DOCS_PATH = '/docs';
export const API_VERSION = '1.0.0';

/** How the partner API is rate limited: `limit` requests per `windowSeconds` (default 60) per API key. */
export type BookingRateLimit = AppRateLimit;

/**
 * Whose requests count together: the partner's API key (as the authentication reads it); requests without one
 * (401s, key guessing with no key) count by the client's address.
 */
export const byPartnerKey: RateLimitKey = (ctx) => readApiKey((name) => ctx.request.getHeader(name));

/** The services the HTTP layer calls (a BookingSystem has them). */
export interface BookingServices {
  bookings: BookingService;
  catalogue: CatalogueService;
  partnerKeys: PartnerKeys;
}

export interface BookingAppOptions extends OperationsOptions {
  /** Base of absolute links; when unset, each request's Host decides (see PublicBaseUrl). */
  publicBaseUrl?: string;
  /** The server's own address, for requests without a usable Host header. */
  fallbackBaseUrl: () => string;
  /** Where unexpected errors go (a pino logger fits); default: warnings and errors as JSON lines on stderr. */
  logger?: Logger;
  /** The partner API's rate limit (default 600 per minute per API key, in memory); false: none. */
  rateLimit?: BookingRateLimit | false;
}

/**
 * The booking API on rest.uws: REST classes resolved through tsyringe, every route behind the partner's API key
 * (except the customer pages, @PermitAll), @Valid bodies checked by class-validator, absolute links, one error
 * envelope for everything, and the OpenAPI document (rest.uws's generator; see OpenApiResource). Listen with
 * startServer (see server.ts).
 */
export function bookingApp(services: BookingServices, options: BookingAppOptions): RestBuilder {
  // One container per app: two servers in one process (tests, benchmarks) keep their own services.
  const container = rootContainer.createChildContainer();
  container.registerInstance(BookingService, services.bookings);
  container.registerInstance(CatalogueService, services.catalogue);
  container.registerInstance(PartnerKeys, services.partnerKeys);
  const logger = options.logger ?? defaultLogger();
  container.register(LOGGER, { useValue: logger });
  container.registerInstance(DatabaseOutageLog, new DatabaseOutageLog(logger));

  const limit = options.rateLimit ?? { limit: DEFAULT_RATE_LIMIT_PER_MINUTE };
  // Request ids, trust proxy, /health and /ready, compression, the access log (app-support's useOperations).
  const builder = useOperations(new RestBuilder().logger(logger), options)
    .injectWith(new TsyringeInjectionProvider(container))
    .register(BookingResource, ProductResource, InventoryResource, CustomerPagesResource)
    .authenticateWith(PartnerApiKeyAuthentication)
    .validateWith(new ClassValidator())
    .addProvider(PublicBaseUrl, (request) => PublicBaseUrl.of(request, options.publicBaseUrl, options.fallbackBaseUrl))
    .errorHandler(BookingExceptionHandler)
    .bodyHandler({ maxBodySize: MAX_BODY_BYTES })
    .register(
      openApiResourceAt(OPENAPI_PATH, {
        title: 'Booking API',
        version: API_VERSION,
        description:
          'Partners read the catalogue, create a booking (UNCAPTURED, seats held for one hour), capture it (PENDING) and ' +
          'read it until fulfilment makes it COMPLETED with tickets and a voucher. Errors: {status, error: {code, message}}.',
        ...(options.publicBaseUrl ? { servers: [{ url: options.publicBaseUrl }] } : {}),
      }),
    )
    .use(swaggerUi({ path: DOCS_PATH, url: OPENAPI_PATH, title: 'Booking API' }));
  // A server span per request, the database's spans under it (telemetry.ts), when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  if (telemetryStarted()) builder.use(openTelemetry());
  if (limit === false) return builder;
  // Every route but the customer pages and the OpenAPI document (@SkipRateLimit): one bucket per API key.
  return builder.use(
    rateLimit({
      key: byPartnerKey,
      global: { limit: limit.limit, windowSeconds: limit.windowSeconds ?? 60 },
      ...rateLimitStoreOptions(limit),
    }),
  );
}
