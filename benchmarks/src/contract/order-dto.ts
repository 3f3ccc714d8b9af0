/**
 * Scenario 3's order as class-validator classes: the validation idiom of NestJS,
 * routing-controllers and rest.uws. Same rules as `findOrderProblem` in order.ts.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  COUNTRY_PATTERN,
  CURRENCIES,
  MAX_ITEMS,
  MAX_NOTE_LENGTH,
  MAX_QUANTITY,
  MAX_UNIT_PRICE,
  SKU_PATTERN,
  type Order,
  type OrderItem,
  type ShippingAddress,
} from './order';

export class OrderItemDto implements OrderItem {
  @IsString() @Matches(SKU_PATTERN) sku!: string;
  @IsInt() @Min(1) @Max(MAX_QUANTITY) quantity!: number;
  @IsNumber() @Min(0) @Max(MAX_UNIT_PRICE) unitPrice!: number;
}

export class ShippingAddressDto implements ShippingAddress {
  @IsString() @Length(1, 100) name!: string;
  @IsString() @Length(1, 200) street!: string;
  @IsString() @Length(1, 100) city!: string;
  @IsString() @Length(1, 16) postalCode!: string;
  @IsString() @Matches(COUNTRY_PATTERN) country!: string;
}

export class OrderDto implements Order {
  @IsString() @Length(1, 64) customerId!: string;
  @IsIn(CURRENCIES as unknown as string[]) currency!: Order['currency'];

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  items!: OrderItemDto[];

  @IsObject()
  @ValidateNested()
  @Type(() => ShippingAddressDto)
  shippingAddress!: ShippingAddressDto;

  @IsString() @MaxLength(MAX_NOTE_LENGTH) note!: string;
}
