import type { Provided } from '../io/registry';
import { resolvedClassMetadata } from '../metadata/store';
import type { ArgumentType, Constructor } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import { errors } from '../errors/factories';

/** What compiling an argument needs to know about its route. */
export interface ArgumentScope {
  label: string;
  routeText: string;
  pathParamNames: readonly string[];
  consumes: readonly string[];
  methodReader?: Constructor;
  methodContextReader?: Constructor;
  settings: SettingsView;
  components: ComponentFactory;
  suppressCheck: boolean;
  /** An extension (validation) turns this class-typed body into an instance itself when a built-in reader read it. */
  bodyInstantiated: boolean;
  /** That extension also checks the JSON depth limit as it builds (see RouteHooks.depthBoundedBodies). */
  bodyDepthBounded: boolean;
}

/** A reader declared with `@Handles(T)` must produce something assignable to the parameter type. */
export function checkReaderType(
  reader: Provided<unknown>,
  type: ArgumentType | undefined,
  where: string,
  scope: ArgumentScope,
): void {
  if (scope.suppressCheck || typeof type !== 'function' || type === Object) return;
  const ctor = typeof reader === 'function' ? reader : (reader as object).constructor;
  const handles = resolvedClassMetadata(ctor).handles;
  if (handles === undefined || handles === type || handles.prototype instanceof type) return;
  throw errors.RU_ERR_READER_TYPE(
    `${where}: reader ${ctor.name} produces ${handles.name}, which cannot be assigned to the parameter type ${type.name} (fix the reader, or add @SuppressCheck to skip this check)`,
  );
}
