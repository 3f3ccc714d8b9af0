import { classMetadata, methodMetadata } from '../metadata/store';
import { errors } from '../errors/factories';

/**
 * Records `value` under `key` on a class or a method, for a plugin to read at registration
 * (`route.definition.extensions.get(key)`: the method's value, else the class's). The way to give a
 * plugin decorators of its own:
 *
 * ```ts
 * const RATE = Symbol('my-plugin:rate');
 * export const Rate = (perMinute: number) => SetMetadata(RATE, perMinute);
 * ```
 */
export function SetMetadata<T>(key: symbol, value: T): ClassDecorator & MethodDecorator {
  if (typeof key !== 'symbol')
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      "rest.uws: SetMetadata takes a symbol key (a plugin's own, so keys never clash)",
    );
  return ((target: object, property?: string | symbol) => {
    if (property === undefined) classMetadata(target as Function).extensions.set(key, value);
    else methodMetadata(target, property).extensions.set(key, value);
  }) as ClassDecorator & MethodDecorator;
}

/**
 * The metadata map of a class (`key` undefined) or of one of its methods, which `SetMetadata` writes: for a
 * decorator that adds to what is recorded (a list, a set) rather than replacing it. Routes read it merged as
 * `route.definition.extensions` (the method's entry, else the class's).
 *
 * ```ts
 * const TAGS = Symbol('my-plugin:tags');
 * export const Tag = (tag: string): MethodDecorator => (target, key) => {
 *   const map = metadataExtensions(target, key);
 *   map.set(TAGS, [...((map.get(TAGS) as string[] | undefined) ?? []), tag]);
 * };
 * ```
 */
export function metadataExtensions(target: object, key?: string | symbol): Map<symbol, unknown> {
  return key === undefined ? classMetadata(target as Function).extensions : methodMetadata(target, key).extensions;
}
