import { errorToClient } from "./back-to-client.js";
import { sameBrowser } from "./browser.js";
import { showConsent } from "./consent.js";
import { type Core, PURPOSE, type SignIn } from "./core.js";
import { findClient, UnknownClientError } from "./directory.js";
import { errorPage } from "./pages.js";
import { UpstreamError } from "./upstream/types.js";

const START_AGAIN = "Start again from your application.";

/**
 * The upstream provider sends the person back here: the sign-in under way is found by
 * `state` (once), must continue in the browser that started it, and is finished with the
 * provider (code exchanged, person identified); then the consent page.
 */
export async function upstreamCallback(core: Core, request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const id = query.get("state");
  if (!id) return errorPage("Cannot continue", `The provider's answer has no state. ${START_AGAIN}`);
  const used = await core.store.consume("request", id);
  if (!used) return errorPage("This sign-in expired", `It is unknown or took too long. ${START_AGAIN}`);
  if (!used.first) return errorPage("Already used", `This sign-in was finished before. ${START_AGAIN}`);
  const signIn = core.sealer.open<SignIn>(PURPOSE.signIn, used.value);
  if (!signIn) return errorPage("Cannot continue", START_AGAIN);
  if (!sameBrowser(core, request, signIn.browser))
    return errorPage("Refused", "This sign-in was started in another browser.", 403);
  if (signIn.expiresAt <= core.now()) return errorPage("This sign-in expired", `It took too long. ${START_AGAIN}`);
  if (query.has("error")) {
    const refused = query.get("error") === "access_denied";
    return errorToClient(
      core,
      signIn,
      refused ? "access_denied" : "server_error",
      refused ? `The sign-in at ${core.upstream.title} was declined` : `The sign-in at ${core.upstream.title} failed`,
    );
  }
  let finished: Awaited<ReturnType<Core["upstream"]["finish"]>>;
  try {
    finished = await core.upstream.finish(query, signIn.kept ?? {}, {
      redirectUri: core.endpoints.callback,
      state: id,
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    core.onError(error);
    return errorToClient(core, signIn, "server_error", `The sign-in at ${core.upstream.title} failed`);
  }
  let client: Awaited<ReturnType<typeof findClient>>;
  try {
    client = await findClient(core, signIn.clientId);
  } catch (error) {
    if (error instanceof UnknownClientError) return errorPage("Unknown application", error.message);
    throw error;
  }
  const { kept: _, ...rest } = signIn;
  return showConsent(
    core,
    client,
    { ...rest, identity: finished.identity, ...(finished.tokens && { tokens: finished.tokens }) },
    {},
    id,
  );
}
