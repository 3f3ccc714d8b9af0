import {
  migrateToLatest,
  openDatabase,
  systemClock,
  type Clock,
  type Database,
  type PostgresPoolOptions,
} from 'app-support';
import type { BookingSchema } from './storage/schema';
import { bookingMigrations } from './storage/migrations';
import { BookingRepository } from './storage/booking-repository';
import { CatalogueRepository } from './storage/catalogue-repository';
import { PartnerRepository } from './storage/partner-repository';
import { seedDemoCatalogue } from './storage/demo-catalogue';
import { BookingService } from './domain/booking-service';
import { CatalogueService } from './domain/catalogue-service';
import { PartnerKeys } from './domain/partner-keys';
import { Fulfilment, linksUnder } from './domain/fulfilment';
import { CaptureTimeoutSweeper } from './domain/capture-timeout-sweeper';
import { PeriodicJob } from './domain/periodic-job';

export interface BookingSystemOptions {
  /** SQLite path, sqlite::memory: or postgres://... (default: in memory). */
  databaseUrl?: string;
  /** Base of the voucher and ticket links handed to customers (a function when it is known only later). */
  publicBaseUrl: string | (() => string);
  clock?: Clock;
  /** Seed the demo catalogue when the catalogue is empty (default true). */
  seedDemoCatalogue?: boolean;
  /** Background rounds; false runs nothing by itself (tests call runOnce). Default: fulfilment every 1 s, sweep every 30 s. */
  background?: false | { fulfilmentIntervalMs?: number; sweepIntervalMs?: number };
  /** Pool size on PostgreSQL (shorthand for postgresPool.max). */
  postgresPoolSize?: number;
  /** PostgreSQL pool settings: size, statement and connect timeouts (see config.ts for the app's defaults). */
  postgresPool?: PostgresPoolOptions;
}

/** The booking service without HTTP: storage opened and migrated, rules wired, background work running. */
export interface BookingSystem {
  database: Database<BookingSchema>;
  bookings: BookingService;
  catalogue: CatalogueService;
  partnerKeys: PartnerKeys;
  fulfilment: Fulfilment;
  sweeper: CaptureTimeoutSweeper;
  repositories: { bookings: BookingRepository; catalogue: CatalogueRepository; partners: PartnerRepository };
  close(): Promise<void>;
}

export async function openBookingSystem(options: BookingSystemOptions): Promise<BookingSystem> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase<BookingSchema>(options.databaseUrl, {
    postgres: {
      ...options.postgresPool,
      ...(options.postgresPoolSize !== undefined ? { max: options.postgresPoolSize } : {}),
    },
  });
  try {
    await migrateToLatest(database, bookingMigrations);
    const repositories = {
      bookings: new BookingRepository(database.db, database.dialect),
      catalogue: new CatalogueRepository(database.db),
      partners: new PartnerRepository(database.db),
    };
    if (options.seedDemoCatalogue !== false) await seedDemoCatalogue(repositories.catalogue, clock);

    const fulfilment = new Fulfilment(repositories.bookings, linksUnder(options.publicBaseUrl), clock);
    const sweeper = new CaptureTimeoutSweeper(repositories.bookings, clock);
    const background = options.background === false ? undefined : (options.background ?? {});
    const fulfilmentJob = background
      ? new PeriodicJob('fulfilment', background.fulfilmentIntervalMs ?? 1000, () => fulfilment.runOnce())
      : undefined;
    const sweepJob = background
      ? new PeriodicJob('capture-timeout sweep', background.sweepIntervalMs ?? 30_000, () => sweeper.runOnce())
      : undefined;

    const catalogue = new CatalogueService(repositories.catalogue, repositories.bookings, clock);
    const bookings = new BookingService({
      bookings: repositories.bookings,
      catalogueRepository: repositories.catalogue,
      catalogue,
      clock,
      onCaptured: () => fulfilmentJob?.trigger(),
    });
    // Both jobs start with a round, so work left by a previous run (or a crash) is done at start.
    fulfilmentJob?.start();
    sweepJob?.start();

    let closing: Promise<void> | undefined;
    return {
      database,
      bookings,
      catalogue,
      partnerKeys: new PartnerKeys(repositories.partners, clock),
      fulfilment,
      sweeper,
      repositories,
      close: () =>
        (closing ??= (async () => {
          await Promise.all([fulfilmentJob?.stop(), sweepJob?.stop()]);
          await database.destroy();
        })()),
    };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}
