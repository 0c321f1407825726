/** Authorization could not be completed; `code` names the step that failed. */
export class OAuthError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OAuthError";
    this.code = code;
  }
}
