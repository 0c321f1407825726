import { LATEST_LEGACY_REVISION } from "mcpkit";
import type { ServerDescription } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { type Checks, failed, passed } from "../check.js";
import { doctorClient } from "../client.js";
import { connected, connectFailure, legacyClientsCheck, listChecks } from "../session-checks.js";
import type { DoctorTarget } from "../target.js";
import { within } from "../within.js";
import { otherPaths } from "./alternatives.js";
import { authorizationChecks, authRequired, authToken } from "./auth-checks.js";
import { answersMcpAt, endpoint, forbidden, notMcp, reached, transportMode, unreachable } from "./http-checks.js";
import { answersMcp, type Exchange, recordingFetch } from "./recording-fetch.js";

type HttpTarget = Extract<DoctorTarget, { kind: "http" }>;

const transportFor = (url: URL, headers: Record<string, string>, fetch = recordingFetch().fetch) =>
  // No standalone GET stream: a diagnosis asks, it does not listen.
  streamableHttpClientTransport(url, { headers, fetch, standaloneStream: false, onError: () => {} });

const hasAuthorization = (headers: Record<string, string>) =>
  Object.keys(headers).some((name) => name.toLowerCase() === "authorization");

/**
 * An HTTP server, step by step: reachable, answering MCP at this URL (else which path of
 * the origin does), the transport, the authorization discovery a 401 starts, then the
 * session's checks. The client is mcpkit's own; a recording fetch beneath it keeps each
 * exchange so a failure can be explained by what the server actually answered.
 */
export async function diagnoseHttp(target: HttpTarget, timeoutMs: number, checks: Checks): Promise<void> {
  const url = new URL(target.url);
  const recorder = recordingFetch();
  const transport = transportFor(url, target.headers, recorder.fetch);
  const client = doctorClient(timeoutMs);
  const started = Date.now();
  let description: ServerDescription;
  try {
    try {
      description = await within(client.connect(transport), timeoutMs);
    } catch (error) {
      await explainFailure(error, Date.now() - started, url, target, recorder.exchanges, timeoutMs, checks);
      return;
    }
    checks.add(reached(url));
    checks.add(answersMcpAt(url, recorder.exchanges));
    checks.add(transportMode(transport.mode));
    for (const check of connected(description, Date.now() - started)) checks.add(check);
    if (description.era === "modern")
      checks.add(
        await legacyClientsCheck(
          (c) => c.connect(transportFor(url, target.headers)),
          doctorClient(timeoutMs, LATEST_LEGACY_REVISION),
          timeoutMs,
        ),
      );
    await listChecks(client, checks);
  } finally {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}

async function explainFailure(
  error: unknown,
  elapsedMs: number,
  url: URL,
  target: HttpTarget,
  exchanges: Exchange[],
  timeoutMs: number,
  checks: Checks,
): Promise<void> {
  const down = unreachable(exchanges, url);
  if (down) {
    checks.add(down);
    return;
  }
  checks.add(reached(url));
  const answered = exchanges.filter((e) => e.status !== undefined);
  const unauthorized = answered.find((e) => e.status === 401);
  if (unauthorized) {
    checks.add(passed(endpoint, `${url.href} asks for authorization (HTTP 401)`));
    const canSignIn = await authorizationChecks(url, unauthorized.wwwAuthenticate, timeoutMs, checks);
    if (hasAuthorization(target.headers))
      checks.add(failed(authToken, "The server refused the Authorization header given with --header (HTTP 401)"));
    else if (canSignIn)
      checks.add(passed(authRequired, "Sign-in is required; no sign-in was started, so the checks stop here"));
    return;
  }
  const refused = answered.find((e) => e.status === 403);
  if (refused && !answered.some((e) => answersMcp(e) && (e.status as number) < 300)) {
    checks.add(forbidden(url, refused));
    return;
  }
  const first = answered[0];
  if (first && !answered.some(answersMcp)) {
    checks.add(notMcp(url, first, await otherPaths(url, target.headers, timeoutMs)));
    return;
  }
  // Nothing answered before the time ran out, or the server answered MCP and the session failed.
  if (first) checks.add(answersMcpAt(url, answered));
  for (const check of connectFailure(error, elapsedMs)) checks.add(check);
}
