/** One answer to an input field of the variant (`name` is echoed in responses, not needed in requests). */
export class InputFieldAnswerDto {
  id!: string;
  value!: string;
}
