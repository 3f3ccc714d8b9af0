/**
 * Scenario 6's 1,000 routes as one rest.uws resource class: generated methods carrying the same decorators
 * (@GET, @Path, @PathParam) a hand-written resource would.
 */
import { GET, Path, PathParam } from 'rest.uws';
import { MANY_ROUTES_COUNT, manyRouteResponse } from '../../contract/routes';

export function createManyRoutesResource(): new () => object {
  class ManyRoutesResource {}
  const prototype = ManyRoutesResource.prototype as unknown as Record<string, unknown>;
  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    const methodName = `route${index}`;
    Object.defineProperty(prototype, methodName, { value: (id: string) => manyRouteResponse(index, id), writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(prototype, methodName)!;
    // GET's declared type takes (target, key), but called by hand it needs the descriptor too, as TypeScript passes it.
    (GET as unknown as MethodDecorator)(prototype, methodName, descriptor);
    Path(`/r${index}/items/{id}`)(prototype, methodName, descriptor);
    // No design:paramtypes on a generated method: declare the argument's type the way the compiler would.
    Reflect.defineMetadata('design:paramtypes', [String], prototype, methodName);
    PathParam('id')(prototype, methodName, 0);
  }
  return ManyRoutesResource;
}
