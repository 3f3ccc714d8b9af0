import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';

export class ApiErrorDetailDto {
  /** E_MISSING_PARAMETER, E_INVALID_ARGUMENT, E_PRICE_MISMATCH, E_UNAUTHORIZED, E_NOT_FOUND, E_SOLD_OUT... */
  @IsString() code!: string;
  /** What was wrong, naming the field. */
  @IsString() message!: string;
}

/** Every error of the API: the partner API's envelope. */
export class ApiErrorDto {
  /** The HTTP status, repeated. */
  @IsInt() status!: number;
  @ValidateNested() @Type(() => ApiErrorDetailDto) error!: ApiErrorDetailDto;
}

/** `@ApiResponse` options of an error answer with this envelope. */
export function apiError(description: string): { type: typeof ApiErrorDto; description: string } {
  return { type: ApiErrorDto, description };
}
