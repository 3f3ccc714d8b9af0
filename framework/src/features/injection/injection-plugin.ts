import { contextFieldFiller, type RestPlugin } from '../../plugin';

/**
 * Injection into components made per request: readers, writers, exception handlers, providers and events with
 * `@Context` fields (or marked `@NoCache`) are made for each request, and this plugin fills their `@Context` fields
 * from it, read like `@Context` arguments (compiled once per class). Constructor injection is the app's injection
 * provider's (`RestBuilder.injectWith`, `TsyringeInjectionProvider`).
 */
export const injectionPlugin: RestPlugin = {
  name: 'injection',
  setup(app) {
    app.fillComponents((type) => contextFieldFiller(type, app.settings, app.components));
  },
};
