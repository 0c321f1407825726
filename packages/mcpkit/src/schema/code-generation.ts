/**
 * Whether this runtime compiles code from strings (`new Function`). Cloudflare Workers
 * refuse it, as does Node under --disallow-code-generation-from-strings or a CSP without
 * 'unsafe-eval'. Asked once, when the first JSON Schema is compiled: never at module
 * load, and a tried constructor costs microseconds.
 */
let allowed: boolean | undefined;

export function codeGenerationAllowed(): boolean {
  if (allowed === undefined) {
    try {
      allowed = new Function("return true")() === true;
    } catch {
      allowed = false;
    }
  }
  return allowed;
}

/** The error a runtime throws when it refuses to compile code from strings. */
export function isCodeGenerationRefused(error: unknown): boolean {
  return (
    error instanceof EvalError ||
    (error instanceof Error && /code generation from strings|unsafe-eval/i.test(error.message))
  );
}
