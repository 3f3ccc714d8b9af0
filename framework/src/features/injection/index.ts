/**
 * Injection: constructor injection through the app's injection provider (`RestBuilder.injectWith`, tsyringe's
 * `TsyringeInjectionProvider`), `@Inject`, and the plugin that fills the `@Context` fields of components made per request.
 */
export { injectionPlugin } from './injection-plugin';
export { Inject } from './inject-decorator';
export { TsyringeInjectionProvider } from './tsyringe-provider';
