/**
 * Exits with `code` once stdout and stderr have taken what was written: a fetch keep-alive
 * socket or a server's pipe must not keep the command running, and a pipe must not lose
 * the report's last lines.
 */
export async function exitWhenWritten(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write("", done))));
  process.exit(code);
}
