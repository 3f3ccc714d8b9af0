import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EXPECTED_STRING, MISSING, NumberAsString } from './validation-messages';

/** One answer to an input field of the variant (`name` is echoed in responses, not needed in requests). */
export class InputFieldAnswerDto {
  @NumberAsString()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(100, { message: 'longer than 100 characters' })
  id!: string;

  @NumberAsString()
  @IsDefined(MISSING)
  @IsString(EXPECTED_STRING)
  @IsNotEmpty(MISSING)
  @MaxLength(1000, { message: 'longer than 1000 characters' })
  value!: string;
}
