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
  IsUUID,
  ValidateNested,
} from 'class-validator';
import type {
  Booking,
  BookingCreateResponse,
  Customer,
  CustomersDetails,
  InputFieldValue,
  PaginationWrapper,
  Price,
  Ticket,
} from '../../domain/booking';
import { ALL_STATUSES, type BookingStatus } from '../../domain/booking-status';

// Answers of the booking routes, as classes so rest.uws's OpenAPI generator can describe them (from these
// class-validator decorators). `implements` keeps them in step with the domain's shapes.

export class InputFieldValueDto implements InputFieldValue {
  @IsString() id!: string;
  /** The field's label from the catalogue (responses only). */
  @IsString() name!: string;
  @IsString() value!: string;
}

export class CustomerViewDto implements Customer {
  @IsString() personType!: string;
  @IsBoolean() isPrimary!: boolean;
  @IsArray() @ValidateNested({ each: true }) @Type(() => InputFieldValueDto) inputFields!: InputFieldValueDto[];
}

export class CustomersDetailsViewDto implements CustomersDetails {
  @IsInt() count!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => CustomerViewDto) customers!: CustomerViewDto[];
}

export class MoneyDto implements Price {
  @IsNumber() amount!: number;
  /** ISO 4217. */
  @IsString() currencyCode!: string;
}

export class TicketDto implements Ticket {
  @IsUUID() publicId!: string;
  @IsUrl() url!: string;
}

export class VariantRefDto {
  @IsString() id!: string;
  /** Empty for a product's default variant. */
  @IsString() name!: string;
}

export class ProductRefDto {
  @IsString() id!: string;
  @IsString() name!: string;
  @ValidateNested() @Type(() => VariantRefDto) variant!: VariantRefDto;
}

export class BookingDto implements Booking {
  /** Decimal string. */
  @IsString() bookingId!: string;
  /** null until captured. */
  @IsOptional() @IsString() partnerReferenceId!: string | null;
  @IsString() variantId!: string;
  /** Local date-time of the slot, no zone: YYYY-MM-DDTHH:MM:SS. */
  @IsString() startDateTime!: string;
  @ValidateNested() @Type(() => ProductRefDto) product!: ProductRefDto;
  @ValidateNested() @Type(() => CustomersDetailsViewDto) customersDetails!: CustomersDetailsViewDto;
  @IsArray() @ValidateNested({ each: true }) @Type(() => InputFieldValueDto) variantInputFields!: InputFieldValueDto[];
  @ValidateNested() @Type(() => MoneyDto) price!: MoneyDto;
  @IsIn([...ALL_STATUSES]) status!: BookingStatus;
  /** null until fulfilled. */
  @IsOptional() @IsUrl() voucherUrl!: string | null;
  /** Empty until fulfilled: one per customer. */
  @IsArray() @ValidateNested({ each: true }) @Type(() => TicketDto) tickets!: TicketDto[];
  /** Unix epoch seconds. */
  @IsInt() creationTimestamp!: number;
}

export class BookingPageDto implements PaginationWrapper<Booking> {
  @IsArray() @ValidateNested({ each: true }) @Type(() => BookingDto) items!: BookingDto[];
  /** Absolute; null on the last page. */
  @IsOptional() @IsUrl() nextUrl!: string | null;
  /** Absolute; null on the first page. */
  @IsOptional() @IsUrl() prevUrl!: string | null;
  @IsInt() total!: number;
  /** null on the last page. */
  @IsOptional() @IsInt() nextOffset!: number | null;
}

export class BookingCreateResponseDto implements BookingCreateResponse {
  /** The booking id. */
  @IsString() itineraryId!: string;
  @ValidateNested() @Type(() => MoneyDto) price!: MoneyDto;
}
