import test from 'ava';
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { ClassValidator, Path, POST, RestBuilder, Valid } from '../../src/index';
import { MAX_JSON_DEPTH } from '../../src/io/json-depth';
import { listen, type RunningServer } from '../support/server';

/**
 * JSON nested thousands deep, up to the body limit, into every kind of body route: a 4xx that says what was
 * wrong, never a 500. Every recursive walk a body goes through is on a route here: the compiled transform and
 * class-transformer (`compile: false`), class-validator's nested validation of a self-referencing class,
 * violation messages that print the value, JSON.stringify of a route that sends the body back. The compiled
 * transform checks the depth itself as it walks (the reader then does not), so each of its ways of handing a
 * part on (a @Transform class, a Map) has a shape of its own.
 */

class Node {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Node)
  child?: Node;
}

/** A @Transform makes the compiled transform copy the object first, then build it (a walk that does not count levels). */
class Tagged {
  @IsOptional()
  @Transform(({ value }) => value)
  data?: unknown;
}

class NewNote {
  @IsString()
  @Length(1, 20, { message: 'title must be 1 to 20 characters, not $value' })
  title!: string;

  // Untyped: copied as it is by the transform, whatever its depth.
  @IsOptional()
  extra?: unknown;

  @IsOptional()
  @ValidateNested()
  @Type(() => Node)
  tree?: Node;

  @IsOptional()
  @ValidateNested()
  @Type(() => Tagged)
  tagged?: Tagged;

  // A Map: handed to class-transformer's own executor.
  @IsOptional()
  labels?: Map<string, unknown>;
}

const stored: unknown[] = [];

@Path('/')
class Notes {
  @POST @Path('/valid') valid(@Valid note: NewNote) {
    stored.push(note);
    return { ok: true };
  }
  @POST @Path('/typed') typed(note: NewNote) {
    stored.push(note);
    return { ok: true };
  }
  @POST @Path('/echo') echo(body: object) {
    return body;
  }
}

const MAX_BODY = 1024 * 1024;
let compiled: RunningServer;
let uncompiled: RunningServer;
test.before(async () => {
  compiled = await listen(new RestBuilder().register(Notes).bodyHandler({ maxBodySize: MAX_BODY }).build());
  uncompiled = await listen(
    new RestBuilder()
      .register(Notes)
      .bodyHandler({ maxBodySize: MAX_BODY })
      .validateWith(new ClassValidator({ compile: false }))
      .build(),
  );
});
test.after.always(() => {
  compiled.close();
  uncompiled.close();
});

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
const tree = (depth: number) => '{"child":'.repeat(depth - 1) + '{"name":"leaf"}' + '}'.repeat(depth - 1);

/** Bodies of the given total depth (the note object is level 1). */
const shapes: Array<[string, (depth: number) => string]> = [
  ['arrays in an untyped field', (d) => `{"title":"t","extra":${arrays(d - 1)}}`],
  ['objects in an untyped field', (d) => `{"title":"t","extra":${objects(d - 1)}}`],
  ['arrays where a string belongs (printed by the violation message)', (d) => `{"title":${arrays(d - 1)}}`],
  ['a self-referencing typed tree', (d) => `{"title":"t","tree":${tree(d - 1)}}`],
  ['objects under a @Transform property', (d) => `{"title":"t","tagged":{"data":${objects(d - 2)}}}`],
  ['objects in a Map-typed field', (d) => `{"title":"t","labels":${objects(d - 1)}}`],
  // Not an object at all: nothing builds it, so the reader measures it (and says it is too deep, not the wrong shape).
  ['the whole body an array', (d) => arrays(d)],
];

async function post(server: RunningServer, path: string, body: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

// Deepest allowed, just over, the 5,000, and as deep as the 1 MiB body limit allows.
const depths = [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 5000, Math.floor(MAX_BODY / 10)];

for (const [which, server] of [
  ['compiled', () => compiled],
  ['class-transformer and class-validator', () => uncompiled],
] as const) {
  for (const [shape, make] of shapes) {
    for (const depth of depths) {
      for (const path of ['/valid', '/typed', '/echo']) {
        test.serial(
          `deep JSON (${which}): ${shape}, ${depth} levels, POST ${path}: ${depth > MAX_JSON_DEPTH ? '400 that names the limit, nothing stored' : 'no 5xx'}`,
          async (t) => {
            let body = make(depth);
            if (body.length > MAX_BODY) body = make(depth - Math.ceil((body.length - MAX_BODY) / 10));
            t.true(body.length <= MAX_BODY);
            const before = stored.length;
            const res = await post(server(), path, body);
            t.true(res.status < 500, `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
            if (depth > MAX_JSON_DEPTH) {
              t.is(res.status, 400);
              t.is(res.body.code, 'RU_ERR_JSON_TOO_DEEP');
              t.regex(res.body.message, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
              t.is(stored.length, before);
            } else if (path === '/echo') {
              t.is(res.status, 200);
            }
          },
        );
      }
    }
  }
}
