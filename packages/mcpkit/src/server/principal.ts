/**
 * Who is calling, as one string: the verified token's subject, else the client it was
 * issued to. Sessions and multi round-trip request state are both bound to it, so both
 * must read it the same way: this is that one rule. Undefined without a verified token.
 */
export function principalOf(auth: unknown): string | undefined {
  if (typeof auth !== "object" || auth === null) return undefined;
  const a = auth as { subject?: unknown; sub?: unknown; clientId?: unknown };
  const id = a.subject ?? a.sub ?? a.clientId;
  return id === undefined ? undefined : String(id);
}
