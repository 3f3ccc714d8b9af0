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
