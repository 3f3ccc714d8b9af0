// The booking service: its HTTP server on rest.uws (what the benchmarks and other apps start), and the service
// without HTTP (what the HTTP layer and the CLI build on).
export { startBookingServer, type BookingServer, type BookingServerOptions } from './server';
export {
  bookingApp,
  MAX_BODY_BYTES,
  OPENAPI_PATH,
  API_VERSION,
  type BookingServices,
  type BookingAppOptions,
} from './app';
export { openBookingSystem, type BookingSystem, type BookingSystemOptions } from './booking-system';
export { readBookingConfig, DEFAULT_DATABASE_FILE, DEFAULT_PORT, type BookingConfig } from './config';
export { BookingError, ErrorCode, type ErrorKind } from './domain/booking-error';
export { BookingStatus, CAPTURE_WINDOW_MS } from './domain/booking-status';
export { API_PREFIX, DEFAULT_LIMIT, MAX_LIMIT } from './domain/pagination';
export type {
  Booking,
  BookingCreateResponse,
  PaginationWrapper,
  Customer,
  CustomersDetails,
  Price,
  Ticket,
} from './domain/booking';
export type { Product, Variant, InventorySlot, InputFieldDefinition } from './domain/catalogue';
export type { Partner } from './domain/partner';
