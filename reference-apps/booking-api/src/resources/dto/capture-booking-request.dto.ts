/** Body of `PUT /booking/{id}`: capturing (status PENDING with the partner's own reference) is the only documented use. */
export class CaptureBookingRequestDto {
  status!: string;
  partnerReferenceId!: string;
}
