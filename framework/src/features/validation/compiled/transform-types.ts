import type { ClassTransformerInternals } from './internals';

/** Turns one plain object into an instance of a class (class-transformer's object branch for that class). */
export type ObjectTransformer = (value: any) => unknown;

/**
 * The same for a plain object of a body not yet stripped of prototype keys, `depth` deep: the result of
 * the transformer on `withoutPrototypeKeys(value, depth)`, without making that copy. `json`: the body is
 * JSON.parse's output as it is, so every object in it is a plain JSON object (nothing to check), and its
 * depth is not checked yet: the walk, which counts levels, throws `jsonTooDeep()` past MAX_JSON_DEPTH
 * (where it hands a part to code that does not count, that part is measured first).
 */
export type BodyTransformer = (value: any, depth: number, json?: boolean) => unknown;

/** A class's two compiled transformers. */
export interface ClassTransformers {
  plain: ObjectTransformer;
  body: BodyTransformer;
}

/** Why a class is left to class-transformer. */
export class NotTransformable extends Error {}

/**
 * What the transformer compiler uses of the transform it compiles for (`CompiledTransform`): the package's
 * internals, and the exact way for a class its generated code cannot take. The generated code gets it as `T` and
 * calls its `value`, `body` and `options`.
 */
export interface TransformSite {
  readonly internals: ClassTransformerInternals;
  readonly copyThen: (plain: ObjectTransformer) => BodyTransformer;
}
