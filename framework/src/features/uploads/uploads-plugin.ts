import {
  BODY_OPTIONS,
  RestSettings,
  RoutingContext,
  SettingsView,
  componentAccessor,
  errors,
  mediaEssence,
  type BodyConsumer,
  type BodyHandlerOptions,
  type RestPlugin,
  type RouteDefinition,
} from '../../plugin';
import { FILE_BODY, type FileBodySpec } from './file-body';
import { FileBodyConsumer, type AdmitBody } from './file-body-consumer';
import { boundaryOf, malformed } from './multipart-parser';
import { UploadConsumer } from './upload-consumer';
import { resolveUploadOptions, type UploadOptions } from './upload-options';

/**
 * Checks body handler options before they become the global ones (`RestRouter.setBodyHandler`):
 * throws a RegistrationError for a bad value.
 */
export function checkGlobalBodyOptions(options: BodyHandlerOptions): void {
  if (options.maxBodySize !== undefined && (!Number.isInteger(options.maxBodySize) || options.maxBodySize < 0)) {
    throw errors.RU_ERR_BODY_OPTIONS('setBodyHandler: maxBodySize must be a whole number of bytes');
  }
  const settings = new RestSettings(false);
  settings.extensions.set(BODY_OPTIONS, options);
  resolveUploadOptions(new SettingsView(settings, new RestSettings(true)));
}

/** Cheap first look at a Content-Type: only one starting with "m" (or with blanks) can be multipart/form-data. */
function mayBeMultipart(type: string): boolean {
  const first = type.charCodeAt(0);
  return first === 0x6d || first === 0x4d || first === 0x20 || first === 0x09;
}

/** Whether each route definition takes multipart bodies, worked out once: the streamer asks on every body read. */
const multipartByDefinition = new WeakMap<RouteDefinition, boolean>();

/** Does a route take multipart bodies (no `@Consumes`, or one that names multipart/form-data)? */
function takesMultipart(route: { readonly definition: RouteDefinition }): boolean {
  const definition = route.definition;
  let takes = multipartByDefinition.get(definition);
  if (takes === undefined) {
    takes =
      definition.consumes.length === 0 ||
      definition.consumes.some((c) => {
        const m = mediaEssence(c);
        return m === 'multipart/form-data' || m === 'multipart/*' || m === '*/*';
      });
    multipartByDefinition.set(definition, takes);
  }
  return takes;
}

/** The `@FileBody` of the first route that has one among those matched. */
function fileBodyOf(
  routes: ReadonlyArray<{ readonly definition: RouteDefinition }>,
  fileBodies: WeakMap<RouteDefinition, FileBodyRoute>,
): FileBodyRoute | undefined {
  for (const route of routes) {
    const found = fileBodies.get(route.definition);
    if (found !== undefined) return found;
  }
  return undefined;
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

/** A `@FileBody` route's limit and admission check, bound once at registration. */
interface FileBodyRoute {
  readonly maxSize: number | undefined;
  readonly admit: AdmitBody | undefined;
}

/**
 * Uploads: multipart/form-data bodies are streamed to an UploadConsumer (files to the uploads folder), which
 * stores the fields for `@FormParam` and the files for `ctx.fileUploads()` in the routing context (`ctx.put`);
 * other bodies stay with the buffering reader. Routes that may read uploads without a body or form
 * argument still read the body: those that declare @Consumes('multipart/form-data') and those that take
 * the RoutingContext (ctx.fileUploads()). A `@FileBody` route's whole body, of any other type, is streamed to one
 * file (FileBodyConsumer) after its admission check. Only the public plugin API: a body streamer and a route hook.
 */
export const uploadsPlugin: RestPlugin = {
  name: 'uploads',
  setup(app) {
    const settings = app.settings;
    let cached: { generation: number; options: UploadOptions } | undefined;
    const current = (): UploadOptions => {
      if (cached === undefined || cached.generation !== settings.generation)
        cached = { generation: settings.generation, options: resolveUploadOptions(settings) };
      return cached.options;
    };
    current(); // bad options fail the build, not the first upload
    const fileBodies = new WeakMap<RouteDefinition, FileBodyRoute>();
    app.bodyStreamer((ctx, routes) => {
      const fileBody = fileBodyOf(routes, fileBodies);
      // The routes first: a JSON-only route spares the header read on every body.
      if (fileBody === undefined && !routes.some(takesMultipart)) return undefined;
      const type = ctx.request.getHeader('content-type');
      if (type === undefined || !mayBeMultipart(type) || mediaEssence(type) !== 'multipart/form-data') {
        if (fileBody === undefined) return undefined;
        return new FileBodyConsumer(ctx, current(), fileBody.maxSize ?? settings.bodyLimit, fileBody.admit, app.logger);
      }
      try {
        const boundary = boundaryOf(type);
        if (boundary === undefined)
          return refusingConsumer(malformed('the Content-Type has no valid boundary parameter'), settings.bodyLimit);
        return new UploadConsumer(ctx, boundary, current(), settings.bodyLimit, app.logger);
      } catch (err) {
        return refusingConsumer(err, settings.bodyLimit);
      }
    });
    app.route((route) => {
      if (route.kind !== 'http') return undefined;
      const spec = route.definition.extensions.get(FILE_BODY) as FileBodySpec | undefined;
      if (spec !== undefined) {
        const admission = spec.admission && componentAccessor(spec.admission, route.components);
        fileBodies.set(route.definition, {
          maxSize: spec.maxSize,
          admit:
            admission &&
            ((ctx) => {
              const check = admission(ctx);
              return 'admit' in check ? check.admit(ctx) : check.then((made) => made.admit(ctx));
            }),
        });
        return { needsBody: true };
      }
      const multipart = route.definition.consumes.some((c) => {
        const m = mediaEssence(c);
        return m === 'multipart/form-data' || m === 'multipart/*';
      });
      const takesContext = route.definition.parameters.some((p) => p.source === 'context' && p.type === RoutingContext);
      return multipart || takesContext ? { needsBody: true } : undefined;
    });
  },
};
