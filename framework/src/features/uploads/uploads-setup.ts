import { registerRouteExtension } from '../../pipeline/extensions';
import { RoutingContext } from '../../context/routing-context';
import { RegistrationError } from '../../errors/http-errors';
import { registryChanged, registryGeneration } from '../../io/generation';
import { mediaEssence } from '../../io/media-type';
import type { Logger } from '../../util/log';
import { RestRouter } from '../../builder/rest-router';
import { onRuntimeCreated, type AppRuntime, type BodyConsumer, type RouteHolder } from '../../app/app-runtime';
import { BODY_OPTIONS, globalSettings, SettingsView, RestSettings, type BodyHandlerOptions } from '../../settings/settings';
import type { FileUpload } from './file-upload';
import { boundaryOf, malformed } from './multipart-parser';
import { FILE_UPLOADS, UploadConsumer } from './upload-consumer';
import { resolveUploadOptions, type UploadOptions } from './upload-options';

declare module '../../context/routing-context' {
  interface RoutingContext {
    /** Files uploaded with this multipart/form-data request, in the order they came (empty for other requests). */
    fileUploads(): readonly FileUpload[];
  }
}

declare module '../../builder/rest-router' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace RestRouter {
    /** Body limits and upload settings for every app (an app's own `RestBuilder.bodyHandler` options win). */
    function setBodyHandler(options: BodyHandlerOptions): void;
  }
}

const NO_UPLOADS: readonly FileUpload[] = Object.freeze([]);

RoutingContext.prototype.fileUploads = function fileUploads(this: RoutingContext): readonly FileUpload[] {
  return this.get<FileUpload[]>(FILE_UPLOADS) ?? NO_UPLOADS;
};

RestRouter.setBodyHandler = function setBodyHandler(options: BodyHandlerOptions): void {
  const previousLimit = globalSettings.bodyLimit;
  const previous = globalSettings.extensions.get(BODY_OPTIONS);
  if (options.maxBodySize !== undefined) {
    if (!Number.isInteger(options.maxBodySize) || options.maxBodySize < 0) throw new RegistrationError('setBodyHandler: maxBodySize must be a whole number of bytes', 'RU_ERR_BODY_OPTIONS');
    globalSettings.bodyLimit = options.maxBodySize;
  }
  globalSettings.extensions.set(BODY_OPTIONS, { ...(previous as object | undefined), ...options });
  try {
    resolveUploadOptions(new SettingsView(new RestSettings(false)));
  } catch (err) {
    globalSettings.bodyLimit = previousLimit;
    if (previous === undefined) globalSettings.extensions.delete(BODY_OPTIONS);
    else globalSettings.extensions.set(BODY_OPTIONS, previous);
    throw err;
  }
  registryChanged();
};

/** Cheap first look at a Content-Type: only one starting with "m" (or with blanks) can be multipart/form-data. */
function mayBeMultipart(type: string): boolean {
  const first = type.charCodeAt(0);
  return first === 0x6d || first === 0x4d || first === 0x20 || first === 0x09;
}

/** Does a route take multipart bodies (no `@Consumes`, or one that names multipart/form-data)? */
function takesMultipart(holder: RouteHolder): boolean {
  const consumes = holder.compiled.definition.consumes;
  if (consumes.length === 0) return true;
  return consumes.some((c) => {
    const m = mediaEssence(c);
    return m === 'multipart/form-data' || m === 'multipart/*' || m === '*/*';
  });
}

/** A consumer that refuses the body with `error` (configuration problems found at request time). */
function refusingConsumer(error: unknown, limit: number): BodyConsumer {
  return {
    limit,
    write() {
      throw error;
    },
    end() {
      throw error;
    },
    abort() {},
  };
}

/** Streams multipart/form-data bodies of every runtime to an UploadConsumer; other bodies stay with the buffering reader. */
function installUploads(rt: AppRuntime): void {
  let cached: { generation: number; options: UploadOptions } | undefined;
  const current = (): UploadOptions => {
    if (cached === undefined || cached.generation !== registryGeneration.value) cached = { generation: registryGeneration.value, options: resolveUploadOptions(rt.settings) };
    return cached.options;
  };
  current(); // bad options fail the build, not the first upload
  const logger: Logger = rt.logger;
  rt.bodyStream = (ctx, routes) => {
    const type = ctx.request.getHeader('content-type');
    if (type === undefined || !mayBeMultipart(type) || mediaEssence(type) !== 'multipart/form-data' || !routes.some(takesMultipart)) return undefined;
    try {
      const boundary = boundaryOf(type);
      if (boundary === undefined) return refusingConsumer(malformed('the Content-Type has no valid boundary parameter'), rt.bodyLimit);
      return new UploadConsumer(ctx, boundary, current(), rt.bodyLimit, logger);
    } catch (err) {
      return refusingConsumer(err, rt.bodyLimit);
    }
  };
}

onRuntimeCreated(installUploads);

// Routes that may read uploads without a body or form argument still read the body: those that
// declare @Consumes('multipart/form-data') and those that take the RoutingContext (ctx.fileUploads()).
registerRouteExtension({
  name: 'uploads',
  order: 50,
  compile(scope) {
    const multipart = scope.definition.consumes.some((c) => {
      const m = mediaEssence(c);
      return m === 'multipart/form-data' || m === 'multipart/*';
    });
    const takesContext = scope.definition.parameters.some((p) => p.source === 'context' && p.type === RoutingContext);
    return multipart || takesContext ? { needsBody: true } : undefined;
  },
});
