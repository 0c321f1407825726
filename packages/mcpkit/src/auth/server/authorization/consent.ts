import { backToClient, errorToClient } from "./back-to-client.js";
import { forgetBrowser, sameBrowser } from "./browser.js";
import type { ClientRecord } from "./clients.js";
import { type CodeRecord, type Core, PURPOSE, type SignIn, subjectOf } from "./core.js";
import { findClient, UnknownClientError } from "./directory.js";
import { readForm } from "./http.js";
import { consentPage, errorPage } from "./pages.js";
import { consentKey, endSignIn } from "./pools.js";
import { hashSecret, newId, newSecret } from "./seal.js";

const START_AGAIN = "Start again from your application.";

/** What the consent page shows for a client: a metadata document's host, else its registered id. */
function identityOf(client: ClientRecord): string {
  return client.source === "metadata-document" ? new URL(client.client_id).host : client.client_id;
}

/**
 * The consent page: the person signed in, now asked whether this client may act for them
 * at this resource. The decision is kept (under consentKey(id)) until the sign-in expires;
 * the page's form names sign-in `id`, which the browser's cookie for it must match.
 */
export async function showConsent(
  core: Core,
  client: ClientRecord,
  id: string,
  signIn: SignIn,
  headers: Record<string, string> = {},
): Promise<Response> {
  const ttl = signIn.expiresAt - core.now();
  if (ttl <= 0) return errorPage("This sign-in expired", `It took too long. ${START_AGAIN}`);
  await core.store.put("request", consentKey(id), core.sealer.seal(PURPOSE.signIn, signIn), ttl);
  const identity = signIn.identity;
  const page = consentPage({
    server: core.serverName,
    clientName: client.client_name,
    clientIdentity: identityOf(client),
    redirectHost: new URL(signIn.redirectUri).host || signIn.redirectUri,
    resource: signIn.resource,
    scopes: signIn.scopes,
    person: identity?.name ?? identity?.email ?? identity?.subject ?? "you",
    provider: core.upstream.title,
    decision: id,
    action: core.endpoints.consent,
  });
  for (const [name, value] of Object.entries(headers)) page.headers.set(name, value);
  return page;
}

/**
 * The person's answer (POST from the consent page): from the browser the page was shown in
 * (its cookie for this sign-in; a request from any other spends nothing), once, before the
 * sign-in expires. This is the one place the client's redirect URI is sent to: allowed, with
 * a code bound to its PKCE challenge, redirect URI, resource and (with dpop_jkt) key;
 * denied, with access_denied.
 */
export async function decide(core: Core, request: Request): Promise<Response> {
  // A form posted from another site: refused whatever it carries (the cookie is SameSite=Lax as well).
  const origin = request.headers.get("origin");
  if (origin && origin !== "null" && origin !== new URL(core.issuer).origin)
    return errorPage("Refused", "This answer was sent from another site.", 403);
  const form = await readForm(request);
  if (typeof form === "string") return errorPage("Cannot continue", form);
  const id = form.get("decision");
  const answer = form.get("answer");
  if (!id || (answer !== "approve" && answer !== "deny"))
    return errorPage("Cannot continue", "The answer is incomplete.");
  const sealed = await core.store.get("request", consentKey(id));
  const signIn = sealed === undefined ? undefined : core.sealer.open<SignIn>(PURPOSE.signIn, sealed);
  if (!signIn?.identity)
    return errorPage("This sign-in expired", `It is unknown, was answered before, or took too long. ${START_AGAIN}`);
  // Checked before the decision is used: an answer from another browser leaves it to the person's.
  if (!sameBrowser(core, request, id, signIn.browser))
    return errorPage("Refused", "This sign-in was started in another browser.", 403);
  if (signIn.expiresAt <= core.now()) return errorPage("This sign-in expired", `It took too long. ${START_AGAIN}`);
  const used = await core.store.consume("request", consentKey(id));
  if (!used?.first) return errorPage("Already answered", `This question was answered before. ${START_AGAIN}`);
  await endSignIn(core, id);
  const done = { "set-cookie": forgetBrowser(core, id) };
  if (answer === "deny") return errorToClient(core, signIn, "access_denied", "The person declined", done);

  // The client may have gone meanwhile (its registration expired): no code for it.
  try {
    await findClient(core, signIn.clientId);
  } catch (error) {
    if (error instanceof UnknownClientError) return errorPage("Unknown application", error.message);
    throw error;
  }
  const code = newSecret();
  const record: CodeRecord = {
    clientId: signIn.clientId,
    redirectUri: signIn.redirectUri,
    challenge: signIn.challenge,
    resource: signIn.resource,
    scopes: signIn.scopes,
    subject: subjectOf(core.upstream, signIn.identity),
    ...(signIn.dpopJkt && { dpopJkt: signIn.dpopJkt }),
    grantId: newId(),
    upstream: {
      provider: core.upstream.id,
      subject: signIn.identity.subject,
      ...(signIn.identity.email !== undefined && { email: signIn.identity.email }),
      ...(signIn.identity.groups && { groups: signIn.identity.groups }),
      ...(signIn.tokens && { tokens: signIn.tokens }),
    },
    expiresAt: core.now() + core.ttl.codeMs,
  };
  await core.store.put("code", hashSecret(code), core.sealer.seal(PURPOSE.code, record), core.ttl.codeMs);
  return backToClient(core, signIn, { code }, done);
}
