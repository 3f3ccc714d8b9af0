import { InputFieldAnswerDto } from './input-field-answer.dto';

export class CustomerDto {
  /** One of the person types the inventory slot prices (ADULT, CHILD...). */
  personType!: string;
  /** Exactly one customer of a booking is the primary one. */
  isPrimary!: boolean;
  inputFields?: InputFieldAnswerDto[];
}

export class CustomersDetailsDto {
  /** Must equal the number of customers given. */
  count!: number;
  /** Only PER_PERSON is offered; accepted for the deprecated create. */
  priceType?: string;
  customers!: CustomerDto[];
}

export class PriceDto {
  amount!: number;
  /** ISO 4217, the currency of the inventory slot. */
  currencyCode!: string;
}

/**
 * Body of `POST /booking` (and the deprecated `POST /booking/create`), with the spec's field names.
 * The booking rules (BookingService) check it field by field and name the field in every refusal.
 */
export class CreateBookingRequestDto {
  variantId!: string;
  /** Used to find the start time and the prices; not stored. */
  inventoryId!: string;
  customersDetails!: CustomersDetailsDto;
  variantInputFields?: InputFieldAnswerDto[];
  /** Must equal what the slot's prices give for the customers, in the slot's currency. */
  price!: PriceDto;
}
