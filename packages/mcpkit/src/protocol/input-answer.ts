/**
 * Whether a client's answer to an input request (basic/patterns/mrtr: an inputResponses
 * entry, or a tasks/update answer) has the shape of the result it stands for; the problem
 * in words, or undefined when it does (mrtr §Error Handling).
 */
export function answerProblem(method: string, answer: unknown): string | undefined {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return "it is not an object";
  const a = answer as Record<string, unknown>;
  switch (method) {
    case "elicitation/create":
      if (!["accept", "decline", "cancel"].includes(a.action as string))
        return 'its "action" must be accept, decline or cancel';
      if (a.content !== undefined && (typeof a.content !== "object" || a.content === null))
        return '"content" must be an object';
      return undefined;
    case "sampling/createMessage":
      if (typeof a.role !== "string" || a.content === undefined) return 'it needs "role" and "content"';
      return undefined;
    case "roots/list":
      return Array.isArray(a.roots) ? undefined : 'it needs a "roots" array';
    default:
      return undefined;
  }
}
