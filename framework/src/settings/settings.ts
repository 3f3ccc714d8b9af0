import type {
  ContextProvider,
  ContextProviderFunction,
  ExceptionHandler,
  HttpResponseWriter,
  NotFoundResponseWriter,
  ValueReader,
} from '../context/contracts';
import { MediaTypeRegistry, type Provided } from '../io/registry';
import { registryChanged, registryGeneration } from '../io/generation';
import type { Logger } from '../util/log';
import type { Constructor } from '../metadata/types';

/** Resolves classes to instances (the spec's InjectionProvider); tsyringe has a ready one. */
export interface InjectionProvider {
  /** An instance of `type` (REST classes, readers, writers, handlers, providers). */
  getInstance<T>(type: Constructor<T>): T;
}

/** What answers unmatched requests: a `NotFoundResponseWriter` (class or instance) or a function of the request and response. */
export type NotFoundHandler =
  | Provided<NotFoundResponseWriter>
  | ((request: any, response: any) => void | Promise<void>);

export interface NotFoundEntry {
  /** Undefined: everything not matched by a more specific entry. */
  pattern?: RegExp;
  handler: NotFoundHandler;
}

export type ProviderRegistration = Provided<ContextProvider> | ContextProviderFunction;

/**
 * Configuration of one app (from RestBuilder) or the global one (RestRouter's static registries).
 * Lookups try the app's own settings, then the global ones.
 */
export class RestSettings {
  readonly readers: MediaTypeRegistry<ValueReader>;
  readonly writers: MediaTypeRegistry<HttpResponseWriter>;
  readonly exceptionHandlers: MediaTypeRegistry<ExceptionHandler>;
  readonly contextProviders = new Map<Function, ProviderRegistration>();
  /** Providers run on every request, their result pushed into the routing context (RestRouter.provide). */
  readonly requestProviders: Array<Provided<ContextProvider>> = [];
  readonly notFound: NotFoundEntry[] = [];
  /** Settings of extensions (authentication, CORS, validation, ...), by the extension's symbol. */
  readonly extensions = new Map<symbol, unknown>();
  bodyLimit: number | undefined;
  injector: InjectionProvider | undefined;
  logger: Logger | undefined;
  /** Headers added to every response unless a route sets them. */
  defaultHeaders: Array<[string, string]> | undefined;

  constructor(readonly isGlobal: boolean) {
    this.readers = new MediaTypeRegistry('reader', isGlobal);
    this.writers = new MediaTypeRegistry('writer', isGlobal);
    this.exceptionHandlers = new MediaTypeRegistry('exception handler', isGlobal);
  }

  changed(): void {
    if (this.isGlobal) registryChanged();
  }
}

/** The global settings behind RestRouter's static methods. */
export const globalSettings = new RestSettings(true);

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Key of the body handler options in the app settings (read by the uploads feature). */
export const BODY_OPTIONS = Symbol('rest.uws:body-options');

/** Options of the request body handling. */
export interface BodyHandlerOptions {
  /** Largest accepted request body in bytes (default 1 MiB); larger ones get 413. */
  maxBodySize?: number;
  /** Folder multipart/form-data files are streamed to (created if missing). Default: `<os tmpdir>/rest.uws-uploads`. */
  uploadsDirectory?: string;
  /** Delete a request's uploaded files when the request ends, unless moved (`FileUpload.moveTo`/`keep`). Default true. */
  deleteUploadedFilesOnEnd?: boolean;
  /** Largest single uploaded file in bytes (413 above it). Default: only the body limit applies. */
  maxFileSize?: number;
  /** Most files per request (413 above it). Default 100. */
  maxFiles?: number;
  /** Most plain (non-file) fields per multipart request (413 above it). Default 1000. */
  maxFields?: number;
  /** Largest plain field value in bytes; fields are kept in memory (413 above it). Default 1 MiB. */
  maxFieldSize?: number;
  /**
   * Accept bodies sent with `Transfer-Encoding: chunked` (default true). `false` answers them `411 Length
   * Required` and closes the connection: for servers behind a proxy that forwards chunked bodies as it got
   * them, since uWebSockets.js decodes chunk syntax that RFC 9112 refuses (docs/security.md, Request framing).
   */
  chunkedBodies?: boolean;
}

/** An app's settings layered over the global ones: what the compiler reads. */
export class SettingsView {
  constructor(
    readonly local: RestSettings,
    readonly global: RestSettings = globalSettings,
  ) {}

  readerForType(type: Function | undefined) {
    return this.local.readers.forType(type) ?? this.global.readers.forType(type);
  }
  readerForMediaType(mediaType: string | undefined) {
    return this.local.readers.forMediaType(mediaType) ?? this.global.readers.forMediaType(mediaType);
  }
  writerForType(type: Function | undefined) {
    return this.local.writers.forType(type) ?? this.global.writers.forType(type);
  }
  writerForMediaType(mediaType: string | undefined) {
    return this.local.writers.forMediaType(mediaType) ?? this.global.writers.forMediaType(mediaType);
  }
  hasTypeWriters(): boolean {
    return this.local.writers.hasTypeEntries() || this.global.writers.hasTypeEntries();
  }
  exceptionHandlerEntries() {
    return [...this.local.exceptionHandlers.typeEntries(), ...this.global.exceptionHandlers.typeEntries()];
  }
  contextProvider(type: Function): ProviderRegistration | undefined {
    return this.local.contextProviders.get(type) ?? this.global.contextProviders.get(type);
  }
  requestProviders(): Array<Provided<ContextProvider>> {
    return [...this.global.requestProviders, ...this.local.requestProviders];
  }
  notFoundEntries(): NotFoundEntry[] {
    return [...this.local.notFound, ...this.global.notFound];
  }
  extension<T>(key: symbol): T | undefined {
    return (this.local.extensions.get(key) ?? this.global.extensions.get(key)) as T | undefined;
  }
  /**
   * A number that changes whenever the global settings change (`RestRouter`'s static setters, which may be called
   * after an app is built): a plugin that derives something from settings keeps it with the number it was derived
   * at, and derives it again when the number moved.
   */
  get generation(): number {
    return registryGeneration.value;
  }

  get bodyLimit(): number {
    return this.local.bodyLimit ?? this.global.bodyLimit ?? DEFAULT_BODY_LIMIT;
  }
  get injector(): InjectionProvider | undefined {
    return this.local.injector ?? this.global.injector;
  }
  get defaultHeaders(): Array<[string, string]> {
    return this.local.defaultHeaders ?? this.global.defaultHeaders ?? [['X-Content-Type-Options', 'nosniff']];
  }
}
