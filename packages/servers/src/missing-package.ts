/** An optional peer package a server needs is not installed: `packageName` says which, the message how to install it. */
export class MissingPackageError extends Error {
  override name = "MissingPackageError";
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`${what} needs the ${packageName} package: npm install ${packageName}`);
  }
}
