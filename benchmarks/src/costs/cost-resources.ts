/**
 * The routes of the cost table (`npm run bench -- --costs`): one route per feature, each answering the same
 * small JSON as the bare route (`{"message":"Hello, World!"}`, scenario 1's body), so the only difference a
 * row measures is the feature. Routes that read a value check it and answer 400 when it is not what the
 * runner sends: the runner's checks prove each feature is really in effect before anything is measured.
 */
import {
  Authenticate,
  BadRequestException,
  BeanParam,
  BearerAuthenticationProvider,
  BodyParam,
  Consumes,
  Context,
  CookieParam,
  DefaultValue,
  Event,
  GET,
  HeaderParam,
  HttpServerRequest,
  HttpServerResponse,
  POST,
  Path,
  Produces,
  QueryParam,
  Response,
  RolesAllowed,
  RoutingContext,
  User,
  Valid,
  type RestEvent,
} from 'rest.uws';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { OrderDto } from '../contract/order-dto';
import { arktypeOrder, valibotOrder, zodOrder } from '../contract/order-standard-schemas';
import { HELLO_BODY } from '../contract/routes';
import { COST_VALUES } from './cost-values';

const hello = () => ({ message: HELLO_BODY.message });

function expect(what: string, actual: unknown, wanted: unknown): void {
  if (actual !== wanted)
    throw new BadRequestException(`${what}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`);
}

/** `@BeanParam`'s class: two query values with conversion. */
export class PageQuery {
  @QueryParam('page') page!: number;
  @QueryParam('size') @DefaultValue('20') size!: number;
}

/** `@Valid`'s small DTO. */
export class Person {
  @IsString() @Length(1, 50) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
}

export const costTokens = BearerAuthenticationProvider.fromTokens({
  [COST_VALUES.token]: new User('ada', ['reader'], {}),
});

/** `@Event`'s event: counts, so the runner can see it ran. */
export class Counted implements RestEvent<unknown> {
  count = 0;
  execute(): void {
    this.count++;
  }
}

export function createCostResource(counted: Counted): object {
  @Path('/')
  class CostResource {
    @GET
    @Path('bare')
    bare() {
      return hello();
    }

    @GET
    @Path('produces-one')
    @Produces('application/json')
    producesOne() {
      return hello();
    }

    @GET
    @Path('produces-many')
    @Produces('application/json', 'text/plain')
    producesMany() {
      return hello();
    }

    @GET
    @Path('consumes')
    @Consumes('application/json')
    consumesOnGet() {
      return hello();
    }

    @GET
    @Path('header-param')
    headerParam(@HeaderParam('x-request-id') id: string) {
      expect('x-request-id', id, COST_VALUES.requestId);
      return hello();
    }

    @GET
    @Path('cookie-param')
    cookieParam(@CookieParam('session') session: string) {
      expect('session', session, COST_VALUES.session);
      return hello();
    }

    @GET
    @Path('query-param')
    queryParam(@QueryParam('page') page: number) {
      expect('page', page, COST_VALUES.page);
      return hello();
    }

    @GET
    @Path('default-value')
    defaultValue(@QueryParam('size') @DefaultValue('20') size: number) {
      expect('size', size, 20);
      return hello();
    }

    @GET
    @Path('context-request')
    contextRequest(@Context() request: HttpServerRequest) {
      expect('request', request instanceof HttpServerRequest, true);
      return hello();
    }

    @GET
    @Path('context-response')
    contextResponse(@Context() response: HttpServerResponse) {
      expect('response', response instanceof HttpServerResponse, true);
      return hello();
    }

    @GET
    @Path('context-routing')
    contextRouting(@Context() ctx: RoutingContext) {
      expect('context', ctx instanceof RoutingContext, true);
      return hello();
    }

    @GET
    @Path('bean-param')
    beanParam(@BeanParam() query: PageQuery) {
      expect('page', query.page, COST_VALUES.page);
      expect('size', query.size, 20);
      return hello();
    }

    @POST
    @Path('post-body')
    @Consumes('application/json')
    postBody(@BodyParam() person: Person) {
      expect('name', person.name, COST_VALUES.person.name);
      return hello();
    }

    @POST
    @Path('valid')
    @Consumes('application/json')
    valid(@Valid @BodyParam() person: Person) {
      expect('name', person.name, COST_VALUES.person.name);
      return hello();
    }

    // Scenario 3's 1 KB order: read without validation (the reference), then validated each way.
    @POST
    @Path('order-body')
    @Consumes('application/json')
    orderBody(@BodyParam() order: { customerId: string }) {
      expect('customerId', order.customerId, COST_VALUES.order.customerId);
      return hello();
    }

    @POST
    @Path('order-valid')
    @Consumes('application/json')
    orderValid(@Valid @BodyParam() order: OrderDto) {
      expect('customerId', order.customerId, COST_VALUES.order.customerId);
      return hello();
    }

    @POST
    @Path('order-zod')
    @Consumes('application/json')
    orderZod(@Valid(zodOrder) order: { customerId: string }) {
      expect('customerId', order.customerId, COST_VALUES.order.customerId);
      return hello();
    }

    @POST
    @Path('order-valibot')
    @Consumes('application/json')
    orderValibot(@Valid(valibotOrder) order: { customerId: string }) {
      expect('customerId', order.customerId, COST_VALUES.order.customerId);
      return hello();
    }

    @POST
    @Path('order-arktype')
    @Consumes('application/json')
    orderArktype(@Valid(arktypeOrder) order: { customerId: string }) {
      expect('customerId', order.customerId, COST_VALUES.order.customerId);
      return hello();
    }

    @GET
    @Path('auth')
    @Authenticate(costTokens)
    @RolesAllowed('reader')
    auth(@Context() user: User) {
      expect('user', user.name, 'ada');
      return hello();
    }

    @GET
    @Path('event')
    @Event(counted)
    event() {
      return hello();
    }

    @GET
    @Path('response-headers')
    responseHeaders() {
      return Response.ok(hello()).header('Cache-Control', 'no-store').header('X-Request-Cost', '1').build();
    }

    @GET
    @Path('async')
    async asyncHandler() {
      return hello();
    }

    @GET
    @Path('events-count')
    eventsCount() {
      return { count: counted.count };
    }
  }
  return new CostResource();
}
