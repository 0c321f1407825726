import type { GatewayConfig } from "@mcpkit/servers/gateway";

/**
 * Warnings for upstreams that act with each person's own token at a provider nobody signs
 * in with here (another one, or no sign-in at all): every call to them would be refused,
 * which a person finds out only by calling.
 */
export function tokenWarnings(config: GatewayConfig, signIn: { id: string; title: string } | undefined): string[] {
  return config.upstreams.flatMap((upstream) => {
    const wanted = upstream.token?.provider;
    if (wanted === undefined || wanted === signIn?.id) return [];
    const why = signIn
      ? `and people sign in with ${signIn.title} (${signIn.id})`
      : `and nobody signs in to this gateway (--authorization-server ${wanted})`;
    return [
      `mcpkit gateway: warning: the "${upstream.name}" server acts with each person's own ${wanted} sign-in, ${why}: every call to it will be refused; give it the team's credentials ("headers", "env") instead, or sign people in with ${wanted}`,
    ];
  });
}
