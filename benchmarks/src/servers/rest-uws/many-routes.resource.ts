/**
 * Scenario 6's 1,000 routes as rest.uws resource classes: generated methods carrying the same decorators
 * (@GET, @Path, @PathParam) a hand-written resource would, 50 per class as an application would group them.
 * (Adding 1,000 methods one by one to a single prototype makes V8 copy its growing descriptor array on every
 * addition, about 16 MB of garbage that a class written in source never costs; it would be charged to the
 * framework's start-up memory.)
 */
import { GET, Path, PathParam } from 'rest.uws';
import { MANY_ROUTES_COUNT, manyRouteResponse } from '../../contract/routes';

const ROUTES_PER_CLASS = 50;

export function createManyRoutesResources(): Array<new () => object> {
  const classes: Array<new () => object> = [];
  for (let first = 0; first < MANY_ROUTES_COUNT; first += ROUTES_PER_CLASS) {
    class ManyRoutesResource {}
    const prototype = ManyRoutesResource.prototype as unknown as Record<string, unknown>;
    for (let index = first; index < Math.min(first + ROUTES_PER_CLASS, MANY_ROUTES_COUNT); index++) {
      const methodName = `route${index}`;
      Object.defineProperty(prototype, methodName, {
        value: (id: string) => manyRouteResponse(index, id),
        writable: true,
        configurable: true,
      });
      const descriptor = Object.getOwnPropertyDescriptor(prototype, methodName)!;
      // GET's declared type takes (target, key), but called by hand it needs the descriptor too, as TypeScript passes it.
      (GET as unknown as MethodDecorator)(prototype, methodName, descriptor);
      Path(`/r${index}/items/{id}`)(prototype, methodName, descriptor);
      // No design:paramtypes on a generated method: declare the argument's type the way the compiler would.
      Reflect.defineMetadata('design:paramtypes', [String], prototype, methodName);
      PathParam('id')(prototype, methodName, 0);
    }
    classes.push(ManyRoutesResource);
  }
  return classes;
}
