// A failure the CLI reports as one line on stderr with a chosen exit code.

/** 2: bad usage (arguments, config); 1: the operation failed. */
export class CliError extends Error {
  override name = 'CliError' as const;
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}
