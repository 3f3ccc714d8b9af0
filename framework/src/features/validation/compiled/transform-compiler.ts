import {
  NotTransformable,
  type BodyTransformer,
  type ClassTransformers,
  type ObjectTransformer,
  type TransformSite,
} from './transform-types';
import type { TransformMetadataRecord, TypeMetadataRecord } from './internals';
import { ConstantTable, strictSource, stringLiteral } from './js-code';

/** Property names with class-transformer or class-validator metadata on the class or its ancestors. */
export function declaredProperties(ctor: Function, t: TransformSite): Set<string> {
  const { storage } = t.internals;
  const names = new Set<string>();
  // class-validator's metadata first: it lists properties in declaration order, the order bodies usually have.
  try {
    const validation = require('class-validator') as typeof import('class-validator');
    const metadatas = validation.getMetadataStorage().getTargetValidationMetadatas(ctor, '', true, false) as {
      propertyName: unknown;
    }[];
    for (const m of metadatas) if (typeof m.propertyName === 'string') names.add(m.propertyName);
  } catch {
    // Only an optimisation: keys not listed here take the generic path.
  }
  for (const target of classChain(ctor)) {
    // class-transformer's own maps: no public API lists a class's decorated properties (docs/architecture.md,
    // "class-transformer's metadata maps", says why they are read and measures the ways without).
    for (const map of [storage._typeMetadatas.get(target), storage._transformMetadatas.get(target)]) {
      if (map !== undefined) for (const name of map.keys()) if (typeof name === 'string') names.add(name);
    }
  }
  return names;
}

/** The class and its ancestors, nearest first: the classes class-transformer's lookups walk. */
function classChain(ctor: Function): Function[] {
  const chain: Function[] = [ctor];
  for (
    let base = Object.getPrototypeOf(ctor) as Function | null;
    typeof base === 'function' && base.prototype !== undefined;
    base = Object.getPrototypeOf(base) as Function | null
  )
    chain.push(base);
  return chain;
}

/** A key the executor skips on instances of the class: a prototype accessor without setter, or a method. */
function blockedOnPrototype(prototype: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return !!descriptor && !descriptor.set;
}

/**
 * Writes class-transformer's object branch (`transform` with a target class, PLAIN_TO_CLASS, default
 * options) for one class as a single function: `new Class()`, then every own key of the plain object
 * in order, `__proto__`/`constructor` skipped, its @Type resolved (the type function called as the
 * executor calls it), keys the prototype blocks skipped, the value transformed, @Transform functions
 * applied, the result assigned. Keys without metadata take one generic path. Throws NotTransformable
 * for @Expose/@Exclude and discriminators.
 */
export function compileClassTransformer(ctor: Function, t: TransformSite): ClassTransformers {
  const { storage, plainToClass } = t.internals;
  if (
    storage.getStrategy(ctor) !== 'none' ||
    storage.getExposedMetadatas(ctor).length > 0 ||
    storage.getExcludedMetadatas(ctor).length > 0
  ) {
    throw new NotTransformable(`${ctor.name}: @Expose/@Exclude are left to class-transformer`);
  }
  const properties: PropertyPlan[] = [];
  for (const key of declaredProperties(ctor, t)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const type = storage.findTypeMetadata(ctor, key);
    const transforms = storage
      .findTransformMetadatas(ctor, key, plainToClass)
      .filter((m) => !m.options?.groups?.length);
    const d = type?.options?.discriminator as { property?: unknown; subTypes?: unknown } | undefined;
    if (type?.options && d?.property && d.subTypes)
      throw new NotTransformable(`${ctor.name}.${key}: discriminators are left to class-transformer`);
    properties.push({ key, type, transforms });
  }
  const plain = generate(ctor, properties, plainToClass, false, t) as ObjectTransformer;
  // User functions that could look at the object must see the stripped copy: then the copy is made.
  const observed = properties.some(
    (p) => p.transforms.length > 0 || (p.type?.typeFunction !== undefined && p.type.typeFunction.length > 0),
  );
  const body = observed ? t.copyThen(plain) : (generate(ctor, properties, plainToClass, true, t) as BodyTransformer);
  return { plain, body };
}

interface PropertyPlan {
  key: string;
  type: TypeMetadataRecord | undefined;
  transforms: TransformMetadataRecord[];
}

/**
 * One transformer: `fromBody` false takes a plain object already stripped of prototype keys; true takes
 * the body itself, a depth and the `json` flag, skips `prototype` keys too and hands values to `T.body`
 * one level deeper.
 */
function generate(
  ctor: Function,
  properties: PropertyPlan[],
  plainToClass: number,
  fromBody: boolean,
  t: TransformSite,
): ObjectTransformer | BodyTransformer {
  const k = new ConstantTable();
  const prototype = ctor.prototype as object | undefined;
  const cases: string[] = [];
  const handled: PropertyPlan[] = [];
  for (const p of properties) {
    if (fromBody && p.key === 'prototype') continue;
    handled.push(p);
    cases.push(...keyCase(p, prototype, plainToClass, fromBody, k));
  }
  // The loop below unrolled for bodies whose keys are the declared properties in declaration order (what clients
  // send): the same steps, in the same order, without the per-key dispatch.
  const unrolled: string[] = [];
  if (handled.length > 0) {
    const shape = [
      `keys.length === ${handled.length}`,
      ...handled.map((p, i) => `keys[${i}] === ${stringLiteral(p.key)}`),
    ];
    unrolled.push(`  if (${shape.join(' && ')}) {`);
    handled.forEach((p, i) => {
      const [, ...body] = keyCase(p, prototype, plainToClass, fromBody, k);
      unrolled.push(
        `    k${i}: { const key = ${stringLiteral(p.key)};`,
        ...body.map((l) => `    ${l.replace(/\bcontinue;/g, `break k${i};`)}`),
      );
    });
    unrolled.push('    return out;', '  }');
  }
  const name = `${fromBody ? 'bodyToInstance' : 'toInstance'}_${(ctor.name || 'anonymous').replace(/[^A-Za-z0-9_$]/g, '_')}`;
  const skipped = fromBody
    ? "key === '__proto__' || key === 'constructor' || key === 'prototype'"
    : "key === '__proto__' || key === 'constructor'";
  const untyped = fromBody
    ? 'body(sub, undefined, undefined, deeper > 64 && sub instanceof Map, deeper, json)'
    : 'transformValue(sub, undefined, undefined, sub instanceof Map)';
  const source = strictSource(k, [
    'const transformValue = T.value, body = T.body, options = T.options;',
    `return function ${name}(value${fromBody ? ', depth, json' : ''}) {`,
    fromBody ? '  const deeper = depth + 1;' : '',
    `  const out = new ${k.ref(ctor)}();`,
    '  let own;',
    '  const P = out.constructor.prototype;',
    `  const known = P === ${k.ref(prototype)};`,
    '  const keys = Object.keys(value);',
    ...unrolled,
    '  for (let i = 0; i < keys.length; i++) {',
    '    const key = keys[i];',
    `    if (${skipped}) continue;`,
    '    switch (key) {',
    ...cases.map((l) => `      ${l}`),
    '      default: {',
    '        const sub = value[key];',
    '        if (P) { const d = Object.getOwnPropertyDescriptor(P, key); if ((d && !d.set) || out[key] instanceof Function) continue; }',
    `        out[key] = sub === null || typeof sub !== 'object' ? sub : ${untyped};`,
    '      }',
    '    }',
    '  }',
    '  return out;',
    '};',
  ]);
  return new Function('K', 'T', source)(k.values, t) as ObjectTransformer | BodyTransformer;
}

/** The `case` of one declared property. */
function keyCase(
  p: PropertyPlan,
  prototype: object | undefined,
  plainToClass: number,
  fromBody: boolean,
  k: ConstantTable,
): string[] {
  const { key, type, transforms } = p;
  // Inside its case the key is known: named property accesses, which V8 caches per object shape.
  const named = stringLiteral(key);
  const lines: string[] = [`case ${named}: {`, `  const sub = value[${named}];`];
  let typeExpr = 'undefined';
  let arrayExpr = 'undefined';
  // A stripped copy is never a Map, below the depth where copying stops.
  const subIsMap = fromBody ? '(deeper > 64 && sub instanceof Map)' : 'sub instanceof Map';
  let mapExpr = subIsMap;
  if (type !== undefined) {
    const m = k.ref(type);
    // The executor asks the type function on every key it sees, before deciding to skip the key.
    lines.push(
      `  const type = ${m}.typeFunction ? ${m}.typeFunction({ newObject: out, object: value, property: key }) : ${m}.reflectedType;`,
    );
    typeExpr = 'type';
    arrayExpr = `(Array.isArray(value[${named}]) ? ${m}.reflectedType : undefined)`;
    if (type.reflectedType === Map) mapExpr = 'true';
  }
  const blocked = prototype !== undefined && blockedOnPrototype(prototype, key);
  // The executor's `out[key] instanceof Function`, asked only of a value that is there: a declared field starts
  // undefined, and `undefined instanceof Function` is false without the lookup (the same order of reads kept).
  lines.push(
    `  if (P && ((known ? ${blocked} : ((d) => !!d && !d.set)(Object.getOwnPropertyDescriptor(P, key))) || ((own = out[${named}]) !== undefined && own instanceof Function))) continue;`,
  );
  const convert = (t: string, a: string, m: string) =>
    fromBody ? `body(sub, ${t}, ${a}, ${m}, deeper, json)` : `transformValue(sub, ${t}, ${a}, ${m})`;
  lines.push(
    typeExpr === 'undefined' && mapExpr === subIsMap
      ? `  let result = sub === null || typeof sub !== 'object' ? sub : ${convert('undefined', 'undefined', subIsMap)};`
      : `  let result = ${convert(typeExpr, arrayExpr, mapExpr)};`,
  );
  for (const transform of transforms) {
    lines.push(
      `  result = ${k.ref(transform)}.transformFn({ value: result, key, obj: value, type: ${k.literal(plainToClass)}, options: options() });`,
    );
  }
  lines.push(`  out[${named}] = result;`, '  continue;', '}');
  return lines;
}
