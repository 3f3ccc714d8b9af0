import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  MAX_CUSTOMERS_PER_BOOKING,
  type CreateBookingRequest,
  type InputFieldAnswer,
} from '../../domain/create-booking-request';
import { InputFieldAnswerDto } from './input-field-answer.dto';
import {
  BlankAsMissing,
  EXPECTED_ARRAY,
  EXPECTED_BOOLEAN,
  EXPECTED_INTEGER,
  EXPECTED_NUMBER,
  EXPECTED_OBJECT,
  EXPECTED_STRING,
  MISSING,
  NumberAsString,
} from './validation-messages';

export class CustomerDto {
  /** One of the person types the inventory slot prices (ADULT, CHILD...). */
  @BlankAsMissing()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(40, { message: 'longer than 40 characters' })
  personType!: string;

  /** Exactly one customer of a booking is the primary one (absent: false). */
  @IsOptional()
  @IsBoolean(EXPECTED_BOOLEAN)
  isPrimary?: boolean;

  @IsOptional()
  @IsArray(EXPECTED_ARRAY)
  @ArrayMaxSize(100, { message: 'at most 100 entries allowed' })
  @ValidateNested({ each: true, message: 'expected objects with id and value' })
  @Type(() => InputFieldAnswerDto)
  inputFields?: InputFieldAnswerDto[];
}

export class CustomersDetailsDto {
  /** Must equal the number of customers given. */
  @IsDefined(MISSING)
  @IsInt(EXPECTED_INTEGER)
  @Min(1, { message: `expected an integer from 1 to ${MAX_CUSTOMERS_PER_BOOKING}` })
  @Max(MAX_CUSTOMERS_PER_BOOKING, { message: `expected an integer from 1 to ${MAX_CUSTOMERS_PER_BOOKING}` })
  count!: number;

  /** Only PER_PERSON is offered; accepted for the deprecated create. */
  @IsOptional()
  @IsString(EXPECTED_STRING)
  @MaxLength(40, { message: 'longer than 40 characters' })
  priceType?: string;

  @IsDefined(MISSING)
  @IsArray(EXPECTED_ARRAY)
  @ArrayMinSize(1, { message: 'at least one customer is required' })
  @ArrayMaxSize(MAX_CUSTOMERS_PER_BOOKING, { message: `at most ${MAX_CUSTOMERS_PER_BOOKING} entries allowed` })
  @ValidateNested({ each: true, message: 'expected customer objects' })
  @Type(() => CustomerDto)
  customers!: CustomerDto[];
}

export class PriceDto {
  @IsDefined(MISSING)
  @IsNumber({ allowNaN: false, allowInfinity: false }, EXPECTED_NUMBER)
  amount!: number;

  /** ISO 4217, the currency of the inventory slot. */
  @BlankAsMissing()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(10, { message: 'longer than 10 characters' })
  currencyCode!: string;
}

/**
 * Body of `POST /booking` (and the deprecated `POST /booking/create`), with the spec's field names. rest.uws checks
 * its shape (`@Valid`), the only check of it; the booking rules then check the customers and the catalogue (slot,
 * person types, input fields, price).
 */
export class CreateBookingRequestDto {
  @NumberAsString()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(100, { message: 'longer than 100 characters' })
  variantId!: string;

  /** Used to find the start time and the prices; not stored. */
  @NumberAsString()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(100, { message: 'longer than 100 characters' })
  inventoryId!: string;

  @IsDefined(MISSING)
  @IsObject(EXPECTED_OBJECT)
  @ValidateNested(EXPECTED_OBJECT)
  @Type(() => CustomersDetailsDto)
  customersDetails!: CustomersDetailsDto;

  @IsOptional()
  @IsArray(EXPECTED_ARRAY)
  @ArrayMaxSize(100, { message: 'at most 100 entries allowed' })
  @ValidateNested({ each: true, message: 'expected objects with id and value' })
  @Type(() => InputFieldAnswerDto)
  variantInputFields?: InputFieldAnswerDto[];

  /** Must equal what the slot's prices give for the customers, in the slot's currency. */
  @IsDefined(MISSING)
  @IsObject(EXPECTED_OBJECT)
  @ValidateNested(EXPECTED_OBJECT)
  @Type(() => PriceDto)
  price!: PriceDto;
}

function answers(fields: InputFieldAnswerDto[] | undefined | null): InputFieldAnswer[] {
  return (fields ?? []).map((field) => ({ id: field.id, value: field.value }));
}

/** The request the booking rules take, from a body rest.uws has checked: absent optional parts get their defaults. */
export function toCreateBookingRequest(body: CreateBookingRequestDto): CreateBookingRequest {
  const details = body.customersDetails;
  return {
    variantId: body.variantId,
    inventoryId: body.inventoryId,
    customersDetails: {
      count: details.count,
      ...(details.priceType !== undefined && details.priceType !== null ? { priceType: details.priceType } : {}),
      customers: details.customers.map((customer) => ({
        personType: customer.personType,
        isPrimary: customer.isPrimary ?? false,
        inputFields: answers(customer.inputFields),
      })),
    },
    variantInputFields: answers(body.variantInputFields),
    price: { amount: body.price.amount, currencyCode: body.price.currencyCode },
  };
}
