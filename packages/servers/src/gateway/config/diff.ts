import type { GatewayConfig, UpstreamConfig } from "./types.js";

/** What changed between two configurations, upstream by upstream. */
export interface ConfigDiff {
  /** Upstreams the new configuration names and the old did not. */
  added: UpstreamConfig[];
  /** Upstreams the old configuration named and the new does not. */
  removed: UpstreamConfig[];
  /** Started anew: how it is reached changed (command, arguments, environment, URL, headers, sessions, token). */
  restarted: UpstreamConfig[];
  /** Served anew from the same process: only which tools and prompts, their names or descriptions changed. */
  reselected: UpstreamConfig[];
  /** The separator: every upstream's names change. */
  separator: boolean;
  /** The policy's rules. */
  policy: boolean;
  /** The audit file, what it keeps of arguments, or the keys redacted. */
  audit: boolean;
  /** The rate limit (the gateway's; a rule's own is the policy's). */
  rateLimit: boolean;
  /** The virtual servers: one added, removed or changed. */
  virtualServers: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** How an upstream is reached: what a change of means a new process or connection. */
const reach = (u: UpstreamConfig) => ({ target: u.target, perSession: u.perSession, token: u.token, prefix: u.prefix });

/** What a reload from `before` to `after` changes: what `Gateway.reload` applies, and `describeDiff` tells. */
export function diffConfigs(before: GatewayConfig, after: GatewayConfig): ConfigDiff {
  const old = new Map(before.upstreams.map((u) => [u.name, u]));
  const now = new Map(after.upstreams.map((u) => [u.name, u]));
  const diff: ConfigDiff = {
    added: after.upstreams.filter((u) => !old.has(u.name)),
    removed: before.upstreams.filter((u) => !now.has(u.name)),
    restarted: [],
    reselected: [],
    separator: before.separator !== after.separator,
    policy: !same(before.policy, after.policy),
    audit: !same(before.audit, after.audit) || !same(before.redact, after.redact),
    rateLimit: !same(before.rateLimit, after.rateLimit),
    virtualServers: !same(before.virtualServers, after.virtualServers),
  };
  for (const upstream of after.upstreams) {
    const previous = old.get(upstream.name);
    if (!previous || same(previous, upstream)) continue;
    if (!same(reach(previous), reach(upstream))) diff.restarted.push(upstream);
    else diff.reselected.push(upstream);
  }
  return diff;
}

/** One line for the log: what a reload did. */
export function describeDiff(diff: ConfigDiff): string {
  const names = (list: UpstreamConfig[]) => list.map((u) => u.name).join(", ");
  const parts = [
    diff.added.length > 0 && `added ${names(diff.added)}`,
    diff.removed.length > 0 && `removed ${names(diff.removed)}`,
    diff.restarted.length > 0 && `restarted ${names(diff.restarted)}`,
    diff.reselected.length > 0 &&
      `changed what ${names(diff.reselected)} serve${diff.reselected.length > 1 ? "" : "s"}`,
    diff.separator && "the separator",
    diff.policy && "the policy",
    diff.audit && "the audit settings",
    diff.rateLimit && "the rate limit",
    diff.virtualServers && "the virtual servers",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : "nothing changed";
}
