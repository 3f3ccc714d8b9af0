// The booking service without HTTP: what the HTTP layer, the benchmarks and the CLI build on.
export { openBookingSystem, type BookingSystem, type BookingSystemOptions } from './booking-system';
export { readBookingConfig, DEFAULT_DATABASE_FILE, DEFAULT_PORT, type BookingConfig } from './booking-config';
export { BookingError, ErrorCode, type ErrorKind } from './domain/booking-error';
export { BookingStatus, CAPTURE_WINDOW_MS } from './domain/booking-status';
export { API_PREFIX, DEFAULT_LIMIT, MAX_LIMIT } from './domain/pagination';
export type { Booking, BookingCreateResponse, PaginationWrapper, Customer, CustomersDetails, Price, Ticket } from './domain/booking';
export type { Product, Variant, InventorySlot, InputFieldDefinition } from './domain/catalogue';
export type { Partner } from './domain/partner';
