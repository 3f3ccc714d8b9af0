import * as path from 'node:path';

/**
 * The parts of class-validator and class-transformer the compilers mirror. They are read from the
 * installed packages themselves (metadata storages, message formatting, executors), and only for the
 * versions whose semantics were mirrored: any other version, or any surprise in the layout, leaves
 * validation to the packages as before (undefined here).
 */

/** A class-validator validation metadata record (0.14 and 0.15 share this shape; `validateIf` is 0.15's). */
export interface ValidationMetadataRecord {
  type: string;
  name?: string;
  target: Function | string;
  propertyName: string;
  constraints?: unknown[];
  constraintCls?: Function;
  message?: string | ((args: ValidationArgumentsRecord) => string);
  groups?: string[];
  always?: boolean;
  each?: boolean;
  validateIf?: (object: object, value: unknown) => boolean;
  /** The `context` option: given with the violation. */
  context?: Record<string, unknown>;
}

/** A registered constraint class (`instance` is resolved through class-validator's container). */
export interface ConstraintMetadataRecord {
  target: Function;
  name?: string;
  async: boolean;
  readonly instance: ConstraintInstance;
}

export interface ConstraintInstance {
  validate(value: unknown, args?: ValidationArgumentsRecord): unknown;
  defaultMessage?(args?: ValidationArgumentsRecord): string;
}

export interface ValidationArgumentsRecord {
  targetName: string | undefined;
  property: string;
  object: object;
  value: unknown;
  constraints: unknown[] | undefined;
}

interface ValidatorMetadataStorage {
  getTargetValidationMetadatas(
    target: Function,
    schema: string | undefined,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): ValidationMetadataRecord[];
  groupByPropertyName(metadata: ValidationMetadataRecord[]): Record<string, ValidationMetadataRecord[]>;
  getTargetValidatorConstraints(target: Function): ConstraintMetadataRecord[];
}

/** What the validator compiler needs from the installed class-validator. */
export interface ClassValidatorInternals {
  /** 14 or 15: the executor semantics to mirror (0.15 added the per-constraint `validateIf` option). */
  minor: 14 | 15;
  module: typeof import('class-validator');
  storage: ValidatorMetadataStorage;
  replaceMessageSpecialTokens(message: unknown, args: ValidationArgumentsRecord): string;
}

/** A class-transformer type metadata record (`@Type`). */
export interface TypeMetadataRecord {
  target: Function;
  propertyName: string;
  reflectedType: unknown;
  typeFunction?: (options?: { newObject: unknown; object: unknown; property: string }) => unknown;
  options?: { discriminator?: unknown; keepDiscriminatorProperty?: boolean };
}

/** A class-transformer transform metadata record (`@Transform`). */
export interface TransformMetadataRecord {
  target: Function;
  propertyName: string;
  transformFn: (params: { value: unknown; key: string; obj: unknown; type: number; options: object }) => unknown;
  options?: { groups?: string[]; since?: number; until?: number; toClassOnly?: boolean; toPlainOnly?: boolean };
}

/**
 * class-transformer's `defaultMetadataStorage`, as the compiler reads it: its public methods, and two of its own
 * fields, not rest.uws's: the package offers no public way to list a class's decorated properties, so the two maps
 * of `@Type` and `@Transform` records are read as they are (only their keys: which properties carry one), for the versions checked in `loadClassTransformerInternals` (an unknown layout leaves transformation to
 * the package). The architecture test's allow-list names the file that reads them (private-members.test.ts).
 */
interface TransformerMetadataStorage {
  _typeMetadatas: Map<Function, Map<string, TypeMetadataRecord>>;
  _transformMetadatas: Map<Function, Map<string, TransformMetadataRecord[]>>;
  findTypeMetadata(target: Function, propertyName: string): TypeMetadataRecord | undefined;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): TransformMetadataRecord[];
  getExposedMetadatas(target: Function): unknown[];
  getExcludedMetadatas(target: Function): unknown[];
  getStrategy(target: Function): string;
}

interface TransformExecutor {
  transform(
    source: unknown,
    value: unknown,
    targetType: unknown,
    arrayType: unknown,
    isMap: unknown,
    level?: number,
  ): unknown;
}

/** What the transformer compiler needs from the installed class-transformer. */
export interface ClassTransformerInternals {
  storage: TransformerMetadataStorage;
  defaultOptions: Record<string, unknown>;
  plainToClass: number;
  /** A fresh class-transformer executor (plain to class) over the given merged options. */
  executor(options: object): TransformExecutor;
}

function packageDirectory(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function versionOf(directory: string): string {
  return String((require(path.join(directory, 'package.json')) as { version?: unknown }).version);
}

const isFunction = (v: unknown): v is Function => typeof v === 'function';

/**
 * class-validator's internals, from the package in `directory` (by default the one rest.uws loads),
 * or undefined when its version or layout is not one the compiler mirrors.
 */
export function loadClassValidatorInternals(directory?: string): ClassValidatorInternals | undefined {
  try {
    const dir = directory ?? packageDirectory('class-validator');
    const match = /^0\.(14|15)\./.exec(versionOf(dir));
    if (match === null) return undefined;
    const main = require(dir) as typeof import('class-validator');
    const utils = require(path.join(dir, 'cjs/validation/ValidationUtils')) as {
      ValidationUtils?: { replaceMessageSpecialTokens?: unknown };
    };
    const storage = main.getMetadataStorage() as unknown as ValidatorMetadataStorage;
    const replace = utils.ValidationUtils?.replaceMessageSpecialTokens;
    if (
      !isFunction(replace) ||
      !isFunction(storage.getTargetValidationMetadatas) ||
      !isFunction(storage.groupByPropertyName) ||
      !isFunction(storage.getTargetValidatorConstraints)
    )
      return undefined;
    return {
      minor: match[1] === '14' ? 14 : 15,
      module: main,
      storage,
      replaceMessageSpecialTokens: (message, args) =>
        (replace as Function).call(utils.ValidationUtils, message, args) as string,
    };
  } catch {
    return undefined;
  }
}

/** class-transformer's internals (0.5.x only), or undefined. */
export function loadClassTransformerInternals(directory?: string): ClassTransformerInternals | undefined {
  try {
    const dir = directory ?? packageDirectory('class-transformer');
    if (!/^0\.5\./.test(versionOf(dir))) return undefined;
    const { defaultMetadataStorage } = require(path.join(dir, 'cjs/storage')) as {
      defaultMetadataStorage: TransformerMetadataStorage;
    };
    const { TransformOperationExecutor } = require(path.join(dir, 'cjs/TransformOperationExecutor')) as {
      TransformOperationExecutor: new (type: number, options: object) => TransformExecutor;
    };
    const { TransformationType } = require(path.join(dir, 'cjs/enums')) as {
      TransformationType: { PLAIN_TO_CLASS: number };
    };
    const { defaultOptions } = require(path.join(dir, 'cjs/constants/default-options.constant')) as {
      defaultOptions: Record<string, unknown>;
    };
    const s = defaultMetadataStorage;
    const maps = [s._typeMetadatas, s._transformMetadatas];
    if (
      !maps.every((m) => m instanceof Map) ||
      !isFunction(TransformOperationExecutor) ||
      typeof TransformationType.PLAIN_TO_CLASS !== 'number'
    )
      return undefined;
    const plainToClass = TransformationType.PLAIN_TO_CLASS;
    return {
      storage: s,
      defaultOptions,
      plainToClass,
      executor: (options) => new TransformOperationExecutor(plainToClass, options),
    };
  } catch {
    return undefined;
  }
}
