/**
 * Scenario 6's 1,000 routes as one NestJS controller. The methods are generated, and the same decorators
 * a hand-written controller would carry (@Get, @Param) are applied to each of them.
 */
import { Controller, Get, Param } from '@nestjs/common';
import { MANY_ROUTES_COUNT, manyRouteResponse } from '../../contract/routes';

export function createManyRoutesController(): new () => object {
  class ManyRoutesController {}
  const prototype = ManyRoutesController.prototype as unknown as Record<string, unknown>;
  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    const methodName = `route${index}`;
    Object.defineProperty(prototype, methodName, {
      value: (id: string) => manyRouteResponse(index, id),
      writable: true,
      configurable: true,
    });
    const descriptor = Object.getOwnPropertyDescriptor(prototype, methodName)!;
    Get(`r${index}/items/:id`)(prototype, methodName, descriptor);
    Param('id')(prototype, methodName, 0);
  }
  Controller()(ManyRoutesController);
  return ManyRoutesController;
}
