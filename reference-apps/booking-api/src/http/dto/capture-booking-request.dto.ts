import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { BlankAsMissing, EXPECTED_STRING, MISSING, NumberAsString } from './validation-messages';

/** Body of `PUT /booking/{id}`: capturing (status PENDING with the partner's own reference) is the only documented use. */
export class CaptureBookingRequestDto {
  /** PENDING captures; the booking rules refuse any other status with a reason. */
  @BlankAsMissing()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(40, { message: 'longer than 40 characters' })
  status!: string;

  @NumberAsString()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(200, { message: 'longer than 200 characters' })
  partnerReferenceId!: string;
}
