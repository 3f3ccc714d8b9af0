import test from 'ava';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IsInt, IsString, Length, Min } from 'class-validator';
import {
  ApiResponse,
  BearerAuthenticationProvider,
  GET,
  openApi,
  Path,
  PathParam,
  POST,
  QueryParam,
  Response,
  RestBuilder,
  swaggerUi,
  User,
  Valid,
} from '../../src/index';
import { listen } from '../support/server';
import { launchChromium } from './chromium';

class NewPet {
  @IsString() @Length(1, 40) name!: string;
  @IsInt() @Min(0) age!: number;
}

class Pet {
  @IsInt() id!: number;
  @IsString() name!: string;
  @IsInt() age!: number;
}

/** Counts what reached the server, so the test knows "Execute" called it. */
const calls: string[] = [];

@Path('/pets')
class PetResource {
  private readonly pets = new Map<number, Pet>([[1, { id: 1, name: 'Rex', age: 3 }]]);

  @GET
  @Path('/')
  @ApiResponse(200, { type: Pet, isArray: true })
  list(@QueryParam('minAge', { optional: true }) minAge?: number): Pet[] {
    calls.push(`list ${minAge ?? ''}`);
    return [...this.pets.values()].filter((p) => p.age >= (minAge ?? 0));
  }

  @GET
  @Path('/{id:\\d+}')
  get(@PathParam('id') id: number): Pet {
    calls.push(`get ${id}`);
    return this.pets.get(id) ?? { id, name: 'unknown', age: 0 };
  }

  @POST
  @Path('/')
  @ApiResponse(201, { type: Pet, description: 'Created' })
  create(@Valid body: NewPet): Response {
    const pet = { id: this.pets.size + 1, ...body };
    this.pets.set(pet.id, pet);
    calls.push(`create ${pet.name}`);
    return Response.status(201).entity(pet).build();
  }
}

test('Swagger UI loads offline, lists the operations, and "Try it out" / "Execute" calls the server and shows its answer', async (t) => {
  const app = new RestBuilder()
    .authenticateWith(BearerAuthenticationProvider.fromTokens({ secret: new User('ada', []) }))
    .register(PetResource)
    .use(openApi({ title: 'Pets', version: '1.0.0' }))
    .use(swaggerUi({ title: 'Pets API', config: { tryItOutEnabled: false } }))
    .build();
  const server = await listen(app);
  t.teardown(server.close);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();

  const failed: string[] = [];
  const elsewhere: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${server.url}/`)) elsewhere.push(request.url());
  });
  page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));

  const loaded = await page.goto(`${server.url}/docs`);
  t.is(loaded?.status(), 200, 'the page is public although the app requires a bearer token');
  t.is(await page.title(), 'Pets API');
  await page.waitForSelector('.opblock', { timeout: 30_000 });
  const operations = await page.$$eval('.opblock-summary', (nodes) =>
    nodes.map(
      (n) =>
        `${n.querySelector('.opblock-summary-method')?.textContent} ${n.querySelector('[data-path]')?.getAttribute('data-path')}`,
    ),
  );
  t.deepEqual(operations.sort(), ['GET /pets', 'GET /pets/{id}', 'POST /pets']);
  t.regex((await page.textContent('.info .title')) ?? '', /^Pets/, "the document's title");

  // Authorize with the bearer token, then run GET /pets with a query parameter.
  await page.click('.btn.authorize');
  await page.fill('.auth-container input', 'secret');
  await page.click('.auth-btn-wrapper .authorize');
  await page.click('.btn-done');

  const list = page.locator('.opblock-get', { has: page.locator('[data-path="/pets"]') });
  await list.locator('.opblock-summary').click();
  await list.locator('.try-out__btn').click();
  await list.locator('input[placeholder="minAge"]').fill('2');
  await list.locator('.execute').click();
  const status = list.locator('.live-responses-table .response .response-col_status');
  await status.first().waitFor({ timeout: 20_000 });
  t.is((await status.first().textContent())?.trim(), '200');
  const body = await list.locator('.live-responses-table .response-col_description pre').first().textContent();
  t.deepEqual(JSON.parse(body ?? 'null'), [{ id: 1, name: 'Rex', age: 3 }]);
  t.true(calls.includes('list 2'), `the server saw the call (${calls.join(', ')})`);
  t.regex((await list.locator('.request-url pre').textContent()) ?? '', new RegExp(`^${server.url}/pets\\?minAge=2$`));

  await page.screenshot({ path: path.join(tmpdir(), 'rest-uws-swagger-ui.png'), fullPage: true });
  t.deepEqual(failed, [], 'no request failed or was refused');
  t.deepEqual(elsewhere, [], 'no request left the server (no CDN, no validator badge)');
  t.deepEqual(consoleErrors, [], 'no script error and no Content-Security-Policy violation');
});
