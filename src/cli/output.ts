// Where the CLI writes: JSON results on stdout, human messages on stderr.

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function say(message: string): void {
  process.stderr.write(`${message}\n`);
}
