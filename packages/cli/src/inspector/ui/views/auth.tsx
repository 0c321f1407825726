import { useState } from "preact/hooks";
import type { AuthStep, AuthStepKind } from "../../contract/entries.js";
import { call } from "../api.js";
import { ExternalLink } from "../parts/external-link.js";
import { JsonView } from "../parts/json.js";
import { useStore } from "../store.js";

/** Each step of a sign-in, named as the specification names it. */
const STEPS: Record<AuthStepKind, { title: string; says: string }> = {
  challenge: {
    title: "The server asks for a sign-in",
    says: "It answers 401 (or 403 for a scope) with WWW-Authenticate, naming its protected resource metadata.",
  },
  "resource-metadata": {
    title: "Protected resource metadata (RFC 9728)",
    says: "The resource names its authorization servers and the scopes it knows.",
  },
  "server-metadata": {
    title: "Authorization server metadata (RFC 8414)",
    says: "Where to register, authorize and get tokens; PKCE, DPoP and CIMD support.",
  },
  registration: {
    title: "Client registration (RFC 7591)",
    says: "The inspector registers itself and gets a client_id.",
  },
  "client-metadata": {
    title: "Client ID metadata document",
    says: "The client_id is a URL: the authorization server reads the client's metadata there; nothing is registered.",
  },
  authorize: {
    title: "Authorization request (in the browser)",
    says: "The browser goes to the authorization server with PKCE's code_challenge, the state and the resource.",
  },
  callback: {
    title: "Back at the inspector",
    says: "The authorization server sends the browser back with a code (or an error), the state and its issuer.",
  },
  token: {
    title: "Token request",
    says: "The code and PKCE's verifier are exchanged for tokens.",
  },
  refresh: {
    title: "Token refresh",
    says: "A refresh token is exchanged for a new access token before the old one runs out.",
  },
};

/**
 * A sign-in step by step (basic/authorization): each request the inspector's OAuth client
 * made, and each answer, in order, from the server's challenge to the tokens and their
 * refresh. Secrets (codes, verifiers, tokens, client secrets) are hidden by the backend;
 * this view never receives them.
 */
export function AuthView() {
  const steps = useStore((s) => s.auth);
  const c = useStore((s) => s.connection);
  const http = c.target.kind === "http";
  const [error, setError] = useState<string>();
  return (
    <section class="view" aria-labelledby="auth-title">
      <div class="pane-head">
        <h2 id="auth-title">
          Sign-in <span class="count">{steps.length}</span>
        </h2>
        <div class="row">
          {http && (
            <button
              type="button"
              class="small"
              onClick={() => {
                setError(undefined);
                call("auth/restart").catch((e: Error) => setError(e.message));
              }}
            >
              Sign in again
            </button>
          )}
          <button type="button" class="small" onClick={() => call("auth/clear")}>
            Clear
          </button>
        </div>
      </div>
      {error && <p class="error">{error}</p>}
      {c.signInUrl && (
        <p>
          Waiting for the person to sign in:{" "}
          <ExternalLink class="button primary" href={c.signInUrl}>
            Sign in
          </ExternalLink>
        </p>
      )}
      {steps.length === 0 && (
        <p class="hint">
          {http
            ? "No sign-in yet: the steps show here once the server asks for one (a 401), or after Sign in again."
            : "A stdio server is not signed in to."}
        </p>
      )}
      <ol class="auth-steps" aria-label="Sign-in steps">
        {steps.map((step, i) => (
          <Step step={step} number={i + 1} key={step.seq} />
        ))}
      </ol>
    </section>
  );
}

function Step({ step, number }: { step: AuthStep; number: number }) {
  const { title, says } = STEPS[step.kind] ?? { title: step.kind, says: "" };
  const status = step.response?.status;
  return (
    <li class="card auth-step" data-step={step.kind}>
      <div class="detail-head">
        <h3>
          {number}. {title}
        </h3>
        {status !== undefined && <span class={`pill ${status < 400 ? "good" : "bad"}`}>{status}</span>}
        {step.error && <span class="pill bad">no answer</span>}
      </div>
      <p class="hint">{says}</p>
      <div class="mono request-line">
        {step.request.method} {step.request.url}
      </div>
      <div class="cards">
        <div>
          <h4>Request</h4>
          <JsonView value={{ headers: step.request.headers, body: step.request.body }} label={`${title} request`} />
        </div>
        <div>
          <h4>Answer</h4>
          {step.error ? (
            <p class="error">{step.error}</p>
          ) : step.response ? (
            <JsonView value={step.response} label={`${title} answer`} />
          ) : (
            <p class="hint">{step.kind === "authorize" ? "In the browser." : "Waiting…"}</p>
          )}
        </div>
      </div>
    </li>
  );
}
