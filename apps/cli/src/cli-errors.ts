/** The command line itself is wrong: nothing was done, exit 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';
}

/** A refusal of the operator's own tool that the API never gives (so it is no DomainError): exit 1. */
export class CliRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
