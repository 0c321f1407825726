import { describe, expect, it } from "vitest";
import type { PolicyRule } from "../config/types.js";
import { claimsOf } from "./claims.js";
import { compilePolicy, type Target } from "./policy.js";

const rule = (r: Partial<PolicyRule>): PolicyRule => ({ when: {}, allow: [], deny: [], ...r });
const tool = (server: string, name: string): Target => ({ server, kind: "tool", name });

const ada = claimsOf({
  token: "t1",
  issuer: "https://gw.example.com",
  subject: "oidc:ada",
  scopes: ["mcp"],
  claims: { groups: ["eng"], email: "Ada@Example.com" },
});
const bob = claimsOf({
  token: "t2",
  issuer: "https://gw.example.com",
  subject: "oidc:bob",
  scopes: [],
  claims: {},
  upstream: {
    provider: "oidc",
    subject: "bob",
    email: "bob@contractor.io",
    groups: ["support"],
    token: async () => "",
  },
});
const anonymous = claimsOf(undefined);

describe("the gateway's policy", () => {
  it("allows everything when the configuration has none", () => {
    const policy = compilePolicy(undefined);
    expect(policy.active).toBe(false);
    expect(policy.allows(anonymous, tool("db", "drop"))).toBe(true);
  });

  it("refuses what no rule allows, once there is a policy", () => {
    const policy = compilePolicy([rule({ when: { groups: ["eng"] }, allow: ["files"] })]);
    expect(policy.allows(ada, tool("files", "read"))).toBe(true);
    expect(policy.allows(ada, { server: "files", kind: "resource" })).toBe(true);
    expect(policy.allows(ada, tool("db", "query"))).toBe(false);
    expect(policy.allows(bob, tool("files", "read"))).toBe(false);
    expect(policy.allows(anonymous, tool("files", "read"))).toBe(false);
    expect(compilePolicy([]).allows(ada, tool("files", "read"))).toBe(false);
  });

  it("lets a deny of any matching rule win over every allow", () => {
    const policy = compilePolicy([
      rule({ allow: ["*"] }),
      rule({ when: { emailDomain: ["contractor.io"] }, deny: ["db/drop_*", "secrets"] }),
    ]);
    expect(policy.allows(bob, tool("db", "query"))).toBe(true);
    expect(policy.allows(bob, tool("db", "drop_table"))).toBe(false);
    expect(policy.allows(bob, { server: "secrets", kind: "resource" })).toBe(false);
    expect(policy.allows(ada, tool("db", "drop_table"))).toBe(true);
  });

  it("names tools by their upstream name; a tool's pattern never covers the server's resources", () => {
    const policy = compilePolicy([rule({ allow: ["issues/search_*", "files/*"] })]);
    expect(policy.allows(ada, tool("issues", "search_issues"))).toBe(true);
    expect(policy.allows(ada, tool("issues", "create_issue"))).toBe(false);
    expect(policy.allows(ada, { server: "issues", kind: "resource" })).toBe(false);
    expect(policy.allows(ada, { server: "files", kind: "resource" })).toBe(true);
    expect(policy.allows(ada, { server: "issues", kind: "prompt", name: "search_help" })).toBe(true);
  });

  it("matches subject, issuer, groups, scopes, email and its domain; every condition must hold", () => {
    const allowed = (when: PolicyRule["when"], who = ada) =>
      compilePolicy([rule({ when, allow: ["files"] })]).allows(who, tool("files", "read"));
    expect(allowed({ subject: ["oidc:ada"] })).toBe(true);
    expect(allowed({ subject: ["oidc:*"] })).toBe(true);
    expect(allowed({ subject: ["oidc:bob"] })).toBe(false);
    expect(allowed({ issuer: ["https://gw.example.com"] })).toBe(true);
    expect(allowed({ scopes: ["mcp"] })).toBe(true);
    expect(allowed({ scopes: ["admin"] })).toBe(false);
    expect(allowed({ email: ["ada@example.com"] })).toBe(true);
    expect(allowed({ emailDomain: ["example.com"] })).toBe(true);
    expect(allowed({ emailDomain: ["@EXAMPLE.com"] })).toBe(true);
    expect(allowed({ groups: ["eng"], emailDomain: ["other.com"] })).toBe(false);
    // The sign-in's groups and email count (mcpkit's authorization server keeps them).
    expect(allowed({ groups: ["support"] }, bob)).toBe(true);
    expect(allowed({ emailDomain: ["contractor.io"] }, bob)).toBe(true);
    expect(allowed({ signedIn: true })).toBe(true);
    expect(allowed({ signedIn: true }, anonymous)).toBe(false);
    expect(allowed({ signedIn: false }, anonymous)).toBe(true);
    expect(allowed({ groups: ["eng"] }, anonymous)).toBe(false);
  });

  it("does not take a look-alike domain, nor an email the token says is unverified", () => {
    const mallory = (email: string, verified?: boolean) =>
      claimsOf({
        token: email,
        subject: "m",
        scopes: [],
        claims: { email, ...(verified !== undefined && { email_verified: verified }) },
      });
    const policy = compilePolicy([rule({ when: { emailDomain: ["example.com"] }, allow: ["files"] })]);
    for (const email of ["m@evil-example.com", "m@example.com.evil.io", "example.com@evil.io", "m@sub.example.com"])
      expect(policy.allows(mallory(email), tool("files", "read"))).toBe(false);
    expect(policy.allows(mallory("m@example.com", false), tool("files", "read"))).toBe(false);
    expect(policy.allows(mallory("m@example.com", true), tool("files", "read"))).toBe(true);
  });

  it("gives the rate of the first rule matching the principal that sets one", () => {
    const policy = compilePolicy([
      rule({ when: { groups: ["eng"] }, allow: ["*"], rateLimit: { perSecond: 50 } }),
      rule({ allow: ["*"], rateLimit: { perSecond: 1 } }),
    ]);
    expect(policy.rateFor(ada)).toEqual({ perSecond: 50 });
    expect(policy.rateFor(bob)).toEqual({ perSecond: 1 });
  });
});
