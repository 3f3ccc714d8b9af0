/**
 * DTO classes covering every constraint the validator compiler writes out, with the options that
 * change its code (each, groups, always, messages, conditions, inheritance, recursion), plus custom
 * constraints it must call rather than inline. Used by the equivalence property tests.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEmpty,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotEquals,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  registerDecorator,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  Email,
  Max as RuMax,
  Min as RuMin,
  NotBlank,
  NotEmpty,
  NotNull,
  Pattern,
  Positive,
  Size,
} from '../../../src/index';

export enum Color {
  Red = 'red',
  Green = 'green',
}

export enum Level {
  Low = 1,
  High = 2,
}

export class Tag {
  @IsString() @MinLength(2) @MaxLength(8) name!: string;
  @IsOptional() @IsInt() @IsPositive() weight?: number;
}

export class Address {
  @IsDefined() @IsString() @Length(2, 10) city!: string;
  @Matches(/^\d{5}$/) zip!: string;
  @Matches('^[a-z]{2}$', 'i') country!: string;
}

export class Everything {
  @IsString() @IsNotEmpty() s!: string;
  @IsInt() @Min(1) @Max(10) i!: number;
  @IsNumber() n!: number;
  @IsNumber({ allowNaN: true, allowInfinity: true }) loose!: number;
  @IsNumber({ maxDecimalPlaces: 2 }) money!: number;
  @IsBoolean() b!: boolean;
  @IsOptional() @IsEmpty() empty?: string;
  @IsIn(['a', 'b', 1]) oneOf!: string | number;
  @IsNotIn(['x', 0]) notOneOf!: string;
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsPositive() pos!: number;
  @IsNegative() neg!: number;
  @Equals('yes') yes!: string;
  @NotEquals(0) notZero!: number;
  @IsEmail() email!: string;
  @IsUUID() uuid!: string;
  @IsUUID('4') uuid4!: string;
  @IsISO8601() iso!: string;
  @IsDateString() date!: string;
  @IsUrl() url!: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayNotEmpty() list!: unknown[];
  @IsString({ each: true }) @MaxLength(3, { each: true }) strings!: string[];
  @IsInt({ each: true }) @Min(0, { each: true }) ints!: number[];
  @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
  @IsOptional() @ValidateNested() @Type(() => Tag) maybeTag?: Tag;
}

export class Messages {
  @IsString({ message: 'need text' }) a!: string;
  @Min(5, {
    message: (args: ValidationArguments) =>
      `${args.property} of ${args.targetName} was ${String(args.value)} < ${String(args.constraints[0])}`,
  })
  b!: number;
  @Max(3, { message: '$property=$value max $constraint1 on $target' }) c!: number;
  @Length(2, 4) d!: string;
  @IsIn(['a', 'b'], { message: 'one of $constraint1, got $value' }) e!: string;
  @ValidateNested({ message: 'nested $property bad: $value' }) @Type(() => Tag) f!: Tag;
  @IsDefined({ message: '' }) g!: unknown;
  @IsInt({ each: true, message: (args: ValidationArguments) => `each of ${args.property}` }) h!: number[];
}

export class Grouped {
  @IsString({ groups: ['a'] }) a!: string;
  @IsInt({ groups: ['b'] }) b!: number;
  @IsDefined({ always: true }) c!: unknown;
  @Min(0) d!: number;
  @MaxLength(2, { groups: ['a'], always: true }) e!: string;
  @IsBoolean({ groups: ['a', 'b'] }) f!: boolean;
}

export class Conditional {
  @IsBoolean() flag!: boolean;
  @ValidateIf((o: Conditional) => o.flag === true) @IsString() @IsNotEmpty() reason!: string;
  @ValidateIf((_o: object, v: unknown) => v !== 'skip') @IsOptional() @IsInt() count?: number;
  @ValidateIf((o: Conditional) => o.flag !== false) @ValidateNested() @Type(() => Tag) tag!: Tag;
  /** class-validator 0.15's per-constraint condition (0.14 ignores the option). */
  @IsInt({ validateIf: (o: object) => (o as Conditional).flag === true }) @Min(0) limited!: number;
}

/** rest.uws's own constraints on fields: compiled as calls of their tests. */
export class RestUwsFields {
  @RuMin(1) @RuMax(5) a!: number;
  @NotBlank() b!: string;
  @Size(1, 3) c!: string | unknown[];
  @Pattern(/ab+/) d!: string;
  @Email() e!: string;
  @NotNull() f!: unknown;
  @NotEmpty() g!: unknown;
  @Positive({ each: true }) h!: number[];
}

@ValidatorConstraint({ name: 'isEven' })
class IsEvenConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const offset = (args.constraints?.[0] as number | undefined) ?? 0;
    return typeof value === 'number' && (value + offset) % 2 === 0;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be even (offset $constraint1)`;
  }
}

function IsDivisibleBy(divisor: number) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isDivisibleBy',
      target: target.constructor,
      propertyName,
      constraints: [divisor],
      options: { each: true },
      validator: {
        validate: (value: unknown) => typeof value === 'number' && value % divisor === 0,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be divisible by ${divisor}`,
      },
    });
}

/** A constraint that reuses a built-in name with other rules: the probes must keep its own validate. */
const StrictString = () =>
  ValidateBy({
    name: 'isString',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value !== 'forbidden',
      defaultMessage: () => '$property must be an allowed string',
    },
  });
/** Reuses `min` but lets null pass, like rest.uws's own @Min. */
const NullableMin = (min: number) =>
  ValidateBy({
    name: 'min',
    constraints: [min],
    validator: {
      validate: (value: unknown) => value === null || (typeof value === 'number' && value >= min),
      defaultMessage: () => '$property too small',
    },
  });

export class Custom {
  @Validate(IsEvenConstraint, [1]) odd!: number;
  @IsDivisibleBy(3) threes!: number | number[];
  @StrictString() text!: string;
  @NullableMin(2) atLeastTwo!: number | null;
  @Validate(IsEvenConstraint, { each: true }) evens!: number[];
}

export class Base {
  @IsString() id!: string;
  @IsInt() version!: number;
  @IsOptional() @IsString() note?: string;
}

export class Derived extends Base {
  @Min(1) override version: number = 0;
  @IsString() @MaxLength(4) extra!: string;
}

export class Tree {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
}

export class Allowed {
  @Allow() free!: unknown;
  @IsString() s!: string;
}

export class Grid {
  @ValidateNested({ each: true }) @Type(() => Tag) rows!: Tag[][];
}

export class Twice {
  @IsDefined() @IsDefined({ message: 'again' }) x!: unknown;
  @Min(1) @Min(2) y!: number;
  @Min(1) @IsString() @Min(3, { message: 'third' }) z!: unknown;
}

export class Empty {}

/** Contexts (error codes of an API) on every kind of metadata: mapped per constraint type, merged when two share one. */
export class Contexts {
  @IsDefined({ context: { code: 'missing' } })
  @IsString({ context: { code: 'not_text', level: 1 } })
  @MaxLength(4, { context: { code: 'too_long' } })
  a!: string;
  @IsOptional() @IsIn(['x', 'y'], { context: { code: 'not_in' } }) @IsIn(['x'], { context: { level: 2 } }) b?: string;
  @Validate(IsEvenConstraint, { context: { code: 'odd' } }) @IsDivisibleBy(3) c!: number;
  @ValidateNested({ each: true, context: { code: 'bad_tag' } })
  @Type(() => Tag)
  @IsArray({ context: { code: 'not_list' } })
  tags!: Tag[];
  @RuMin(2, { context: { code: 'small' } }) @IsInt({ each: true, context: { code: 'whole' } }) d!: number | number[];
  @IsDefined({ message: '', context: { code: 'silent' } }) e!: unknown;
  @ValidateIf((o: Contexts) => o.a !== 'skip', { context: { code: 'condition' } })
  @IsBoolean({ context: { code: 'flag' } })
  f!: boolean;
}
