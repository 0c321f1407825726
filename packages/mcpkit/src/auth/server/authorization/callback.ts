import { bindBrowser, forgetBrowser, sameBrowser } from "./browser.js";
import { showConsent } from "./consent.js";
import { type Core, PURPOSE, type SignIn } from "./core.js";
import { findClient, UnknownClientError } from "./directory.js";
import { errorPage } from "./pages.js";
import { endSignIn } from "./pools.js";
import { UpstreamError } from "./upstream/types.js";

const START_AGAIN = "Start again from your application.";

/**
 * The upstream provider sends the person back here: the sign-in under way is found by
 * `state`, must continue in the browser that started it (checked before it is used, so a
 * request from anywhere else spends nothing), and is used once; finished with the provider
 * (code exchanged, person identified), the browser gets a new cookie and the consent page.
 * A refusal or failure upstream ends the sign-in on a page: the person has not signed in,
 * so nothing goes back to the client's redirect URI.
 */
export async function upstreamCallback(core: Core, request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const id = query.get("state");
  if (!id) return errorPage("Cannot continue", `The provider's answer has no state. ${START_AGAIN}`);
  const sealed = await core.store.get("request", id);
  const signIn = sealed === undefined ? undefined : core.sealer.open<SignIn>(PURPOSE.signIn, sealed);
  if (!signIn)
    return errorPage("This sign-in expired", `It is unknown, was finished before, or took too long. ${START_AGAIN}`);
  if (!sameBrowser(core, request, id, signIn.browser))
    return errorPage("Refused", "This sign-in was started in another browser.", 403);
  if (signIn.expiresAt <= core.now()) return errorPage("This sign-in expired", `It took too long. ${START_AGAIN}`);
  const used = await core.store.consume("request", id);
  if (!used?.first) return errorPage("Already used", `This sign-in was finished before. ${START_AGAIN}`);
  await core.store.delete("request", id);

  const ended = async (title: string, message: string, status = 400) => {
    await endSignIn(core, id);
    const page = errorPage(title, `${message} ${START_AGAIN}`, status);
    page.headers.append("set-cookie", forgetBrowser(core, id));
    return page;
  };
  if (query.has("error"))
    return query.get("error") === "access_denied"
      ? ended("Sign-in declined", `The sign-in at ${core.upstream.title} was declined.`, 403)
      : ended("Sign-in failed", `The sign-in at ${core.upstream.title} failed.`, 502);
  let finished: Awaited<ReturnType<Core["upstream"]["finish"]>>;
  try {
    finished = await core.upstream.finish(query, signIn.kept ?? {}, {
      redirectUri: core.endpoints.callback,
      state: id,
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    core.onError(error);
    return ended("Sign-in failed", `The sign-in at ${core.upstream.title} failed.`, 502);
  }
  let client: Awaited<ReturnType<typeof findClient>>;
  try {
    client = await findClient(core, signIn.clientId);
  } catch (error) {
    if (error instanceof UnknownClientError) return ended("Unknown application", error.message);
    throw error;
  }
  // Signed in: a new cookie, so that a value known before (planted, or seen on the way) decides nothing.
  const browser = bindBrowser(core, id);
  const { kept: _, ...rest } = signIn;
  return showConsent(
    core,
    client,
    id,
    {
      ...rest,
      browser: browser.hash,
      identity: finished.identity,
      ...(finished.tokens && { tokens: finished.tokens }),
    },
    { "set-cookie": browser.setCookie },
  );
}
