/**
 * Scenario 6's 1,000 routes as one routing-controllers controller: generated methods carrying
 * the same decorators (@Get, @Param) a hand-written controller would.
 */
import { Get, JsonController, Param } from 'routing-controllers';
import { MANY_ROUTES_COUNT, manyRouteResponse } from '../../contract/routes';

export function createManyRoutesController(): new () => object {
  class ManyRoutesController {}
  const prototype = ManyRoutesController.prototype as unknown as Record<string, unknown>;
  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    const methodName = `route${index}`;
    prototype[methodName] = (id: string) => manyRouteResponse(index, id);
    Get(`/r${index}/items/:id`)(prototype, methodName);
    Param('id')(prototype, methodName, 0);
  }
  JsonController()(ManyRoutesController);
  return ManyRoutesController;
}
