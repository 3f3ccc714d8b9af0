import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  ValidateNested,
} from 'class-validator';
import type { PaginationWrapper } from '../../domain/booking';
import type { InputFieldDefinition, InventorySlot, PersonPrice, Product, Variant } from '../../domain/catalogue';

// Answers of the catalogue routes, for the OpenAPI document (see booking.dto.ts).

export class InputFieldDefinitionDto implements InputFieldDefinition {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsIn(['PRIMARY_CUSTOMER', 'EVERY_CUSTOMER', 'VARIANT']) appliesTo!: InputFieldDefinition['appliesTo'];
  @IsIn(['TEXT', 'EMAIL', 'PHONE', 'INTEGER']) dataType!: InputFieldDefinition['dataType'];
  @IsBoolean() required!: boolean;
}

export class VariantDto implements Variant {
  @IsString() id!: string;
  @IsString() productId!: string;
  /** Empty for a product's default variant. */
  @IsString() name!: string;
  @IsString() currencyCode!: string;
  @IsOptional() @IsInt() durationMinutes!: number | null;
  @IsIn(['PER_PERSON']) priceType!: 'PER_PERSON';
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => InputFieldDefinitionDto)
  inputFields!: InputFieldDefinitionDto[];
}

export class ProductDto implements Product {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsString() city!: string;
  @IsString() description!: string;
  /** IANA zone of the slots' local times. */
  @IsString() timezone!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => VariantDto) variants!: VariantDto[];
}

export class ProductPageDto implements PaginationWrapper<Product> {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ProductDto) items!: ProductDto[];
  @IsOptional() @IsUrl() nextUrl!: string | null;
  @IsOptional() @IsUrl() prevUrl!: string | null;
  @IsInt() total!: number;
  @IsOptional() @IsInt() nextOffset!: number | null;
}

export class PersonPriceDto implements PersonPrice {
  /** The person type to book with (ADULT, CHILD...). */
  @IsString() type!: string;
  @IsString() name!: string;
  @IsOptional() @IsInt() ageFrom!: number | null;
  @IsOptional() @IsInt() ageTo!: number | null;
  @IsNumber() price!: number;
}

export class SlotPricingDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => PersonPriceDto) persons!: PersonPriceDto[];
}

export class InventorySlotDto implements InventorySlot {
  /** The inventoryId of a create request. */
  @IsString() id!: string;
  @IsString() variantId!: string;
  /** Local date-time, no zone. */
  @IsString() startDateTime!: string;
  @IsOptional() @IsString() endDateTime!: string | null;
  @IsIn(['LIMITED', 'UNLIMITED', 'CLOSED']) availability!: InventorySlot['availability'];
  /** Seats left; null when unlimited. */
  @IsOptional() @IsInt() remaining!: number | null;
  @IsString() currencyCode!: string;
  @ValidateNested() @Type(() => SlotPricingDto) pricing!: SlotPricingDto;
}

export class InventoryPageDto implements PaginationWrapper<InventorySlot> {
  @IsArray() @ValidateNested({ each: true }) @Type(() => InventorySlotDto) items!: InventorySlotDto[];
  @IsOptional() @IsUrl() nextUrl!: string | null;
  @IsOptional() @IsUrl() prevUrl!: string | null;
  @IsInt() total!: number;
  @IsOptional() @IsInt() nextOffset!: number | null;
}
