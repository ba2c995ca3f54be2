/** Whether a request field was given: absent and `null` both mean "not given" to the API's clients. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}
