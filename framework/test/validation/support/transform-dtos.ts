/**
 * DTO classes covering what the compiled plainToInstance mirrors (@Type to classes, arrays, Sets and
 * primitive wrappers, @Transform with its options, prototype methods and accessors, field initializers,
 * inheritance, recursion) and what it hands back to class-transformer (@Expose, @Exclude, discriminators).
 */
import 'reflect-metadata';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import { IsString } from 'class-validator';

export class Item {
  sku!: string;
  @Type(() => Number) quantity!: number;
  label = 'none';
  describe(): string {
    return `${this.quantity} x ${this.sku}`;
  }
  get total(): number {
    return this.quantity;
  }
  set price(value: number) {
    this.cents = Math.round(value * 100);
  }
  cents?: number;
}

export class Address {
  @IsString() city!: string;
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value)) country!: string;
}

export class Order {
  @IsString() id!: string;
  @Type(() => Item) items!: Item[];
  @Type(() => Address) address!: Address;
  @Type(() => Item) itemSet!: Set<Item>;
  @Type(() => String) code!: string;
  @Type(() => Boolean) flag!: boolean;
  @Type(() => Date) when!: Date;
  @Transform(({ value, key, obj }) => `${key}:${String(value)}:${typeof (obj as Record<string, unknown>).id}`)
  note!: string;
  @Transform(({ value }) => (typeof value === 'number' ? String(value) : value))
  @Transform(({ value }) => `[${String(value)}]`)
  twice!: string;
  @Transform(() => 'grouped', { groups: ['admin'] }) grouped!: string;
  @Transform(() => 'plain only', { toPlainOnly: true }) outward!: string;
  @Transform(({ options }) => typeof options) sawOptions!: string;
  tags: string[] = [];
}

export class SpecialOrder extends Order {
  @Type(() => Item) extra!: Item;
}

export class Node {
  name!: string;
  @Type((options) => ((options?.object as { leaf?: unknown } | undefined)?.leaf ? Leaf : Node)) children!: (
    | Node
    | Leaf
  )[];
}

export class Leaf {
  value!: unknown;
}

/** @Expose/@Exclude: left to class-transformer. */
export class Exposed {
  @Expose({ name: 'given_name' }) givenName!: string;
  @Exclude() secret!: string;
  @Type(() => Item) item!: Item;
}

/** A discriminated union: left to class-transformer. */
export class Shelf {
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { value: Item, name: 'item' },
        { value: Leaf, name: 'leaf' },
      ],
    },
  })
  thing!: Item | Leaf;
}

/** Holds a Shelf: compiled itself, the Shelf inside goes to class-transformer. */
export class Warehouse {
  name!: string;
  @Type(() => Shelf) shelves!: Shelf[];
}

/** Recursive through a type function without parameters: built straight from the body, no copy first. */
export class Branch {
  name!: string;
  @Type(() => Branch) children!: Branch[];
  @Type(() => Item) item!: Item;
}
