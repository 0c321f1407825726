import { describe, expect, it } from "vitest";
import { ISSUER, RESOURCE, setup, signIn } from "./in-process.js";

// The resources an authorization server issues tokens for (RFC 8707) may change while it
// runs, as a gateway's virtual servers do when its configuration is reloaded: given as a
// function, the list is asked at each authorization request.

const TRIAGE = `${ISSUER}/triage`;

describe("resources given as a function", () => {
  it("issues tokens for a resource once the list names it, and no longer once it does not", async () => {
    const served = [RESOURCE];
    const server = setup({ resources: () => served });
    const clientId = await server.client();
    const { send } = server.from("192.0.2.250");
    expect((await signIn(send, clientId, TRIAGE)).ok).toBe(false);
    served.push(TRIAGE);
    expect((await signIn(send, clientId, TRIAGE)).ok).toBe(true);
    expect((await signIn(send, clientId, RESOURCE)).ok).toBe(true);
    served.splice(1);
    expect((await signIn(send, clientId, TRIAGE)).ok).toBe(false);
  });

  it("is checked at start as a list is: none at all cannot be served", () => {
    expect(() => setup({ resources: () => [] })).toThrow(/Name the resources tokens are for/);
  });
});
