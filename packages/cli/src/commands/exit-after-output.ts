/**
 * Exits once everything written to stdout and stderr has been handed to the OS: a report
 * piped to another program must arrive whole, and a keep-alive socket or a child's pipe
 * must not keep the command running after it.
 */
export async function exitAfterOutput(code: number): Promise<never> {
  const drain = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.writableLength === 0) resolve();
      else stream.write("", () => resolve());
    });
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}
