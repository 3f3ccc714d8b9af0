import { classMetadata, methodMetadata, paramMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import { marker } from './decorator-forms';
import { errors } from '../errors/factories';

type ClassMethodOrParamDecorator = (
  target: object,
  key?: string | symbol,
  indexOrDescriptor?: number | PropertyDescriptor,
) => void;

/**
 * A reader for one parameter or bean field (on it), or for the body of a method or of every method of a class
 * (on the method or class; other arguments keep their own readers, as in the reference library).
 */
export function RequestReader(reader: Constructor): ClassMethodOrParamDecorator {
  return (target, key, index) => {
    if (typeof index === 'number') {
      // Alone on a parameter it reads the body, as in the reference library (`create(@RequestReader(R) order: Order)`).
      const alone = key !== undefined && !methodMetadata(target, key).params.has(index);
      const param = paramMetadata(target, key, index);
      param.reader = reader;
      if (alone) param.source = 'body';
    } else if (key !== undefined && index === undefined) paramMetadata(target, key, undefined).reader = reader;
    else if (key !== undefined) methodMetadata(target, key).reader = reader;
    else classMetadata(target as Function).reader = reader;
  };
}

/** The writer that turns the method's result into the response (on a method or a class). */
export function ResponseWriter(writer: Constructor): ClassMethodOrParamDecorator {
  return (target, key) => {
    if (key !== undefined) methodMetadata(target, key).writer = writer;
    else classMetadata(target as Function).writer = writer;
  };
}

/** A context provider for one `@Context` parameter or bean field, or for a whole method; overrides the global provider. */
export function ContextReader(provider: Constructor): ClassMethodOrParamDecorator {
  return (target, key, index) => {
    if (typeof index === 'number') paramMetadata(target, key, index).contextReader = provider;
    else if (key !== undefined && index === undefined) paramMetadata(target, key, undefined).contextReader = provider;
    else if (key !== undefined) methodMetadata(target, key).contextReader = provider;
  };
}

/**
 * Exception handlers for a method or class, tried in the order given, before the app's and global ones.
 * An empty `@CatchWith()` on a method keeps its class's handlers away from it (on a class, a base class's).
 */
export function CatchWith(...handlers: Constructor[]): ClassMethodOrParamDecorator {
  for (const h of handlers)
    if (typeof h !== 'function')
      throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @CatchWith takes exception handler classes');
  return (target, key) => {
    if (key !== undefined) methodMetadata(target, key).catchWith = handlers;
    else classMetadata(target as Function).catchWith = handlers;
  };
}

/** Skips the registration-time check that readers and writers fit the declared types. */
export const SuppressCheck = marker((target: object, key?: string | symbol) => {
  if (key !== undefined) methodMetadata(target, key).suppressCheck = true;
  else classMetadata(target as Function).suppressCheck = true;
});

/**
 * Declares the type a reader produces, a writer accepts, or an exception handler handles:
 * TypeScript erases generic arguments, so `ValueReader<Person>` alone cannot tell.
 */
export function Handles(type: Function): ClassDecorator {
  return (target) => {
    classMetadata(target).handles = type;
  };
}
