import type { Answer } from "./api.js";
import { pageNote } from "./pagination.js";
import { rateLimitNote } from "./rate-limit.js";

/** Compact text of GitHub's objects: the fields a person or a model acts on, and the link. */

type Obj = Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const login = (user: unknown) => s((user as Obj | null)?.login) || "ghost";
const day = (v: unknown) => s(v).slice(0, 10);
const names = (list: unknown) =>
  (Array.isArray(list) ? list : []).map((x) => (typeof x === "string" ? x : s((x as Obj).name))).filter(Boolean);

export function repoLine(r: Obj): string {
  const extra = [s(r.language), r.archived ? "archived" : "", r.fork ? "fork" : "", `updated ${day(r.updated_at)}`]
    .filter(Boolean)
    .join(", ");
  return `${s(r.full_name)} ★${s(r.stargazers_count)}${r.description ? ` — ${s(r.description)}` : ""} (${extra}) ${s(r.html_url)}`;
}

export function issueLine(i: Obj): string {
  const kind = i.pull_request ? "pull request " : "";
  const labels = names(i.labels);
  return `#${s(i.number)} [${kind}${s(i.state)}] ${s(i.title)} — by ${login(i.user)}, ${s(i.comments)} comment${i.comments === 1 ? "" : "s"}${labels.length ? `, labels: ${labels.join(", ")}` : ""}, updated ${day(i.updated_at)} ${s(i.html_url)}`;
}

export function pullLine(p: Obj): string {
  const head = s((p.head as Obj | undefined)?.label) || s((p.head as Obj | undefined)?.ref);
  const base = s((p.base as Obj | undefined)?.ref);
  const state = p.merged_at ? "merged" : p.draft ? `draft, ${s(p.state)}` : s(p.state);
  return `#${s(p.number)} [${state}] ${s(p.title)} (${head} → ${base}) — by ${login(p.user)}, updated ${day(p.updated_at)} ${s(p.html_url)}`;
}

export function issueDetail(i: Obj, comments: Obj[]): string {
  const labels = names(i.labels);
  const assignees = (Array.isArray(i.assignees) ? i.assignees : []).map(login);
  return [
    `#${s(i.number)}: ${s(i.title)}`,
    `State: ${s(i.state)}${i.state_reason ? ` (${s(i.state_reason)})` : ""}${i.pull_request ? " (a pull request)" : ""}`,
    `Author: ${login(i.user)}, opened ${day(i.created_at)}, updated ${day(i.updated_at)}`,
    ...(labels.length ? [`Labels: ${labels.join(", ")}`] : []),
    ...(assignees.length ? [`Assignees: ${assignees.join(", ")}`] : []),
    `URL: ${s(i.html_url)}`,
    "",
    s(i.body) || "(no description)",
    ...comments.flatMap((c) => ["", `— ${login(c.user)} on ${day(c.created_at)}:`, s(c.body)]),
  ].join("\n");
}

export function pullDetail(p: Obj, files: Obj[]): string {
  const head = p.head as Obj | undefined;
  const state = p.merged ? `merged by ${login(p.merged_by)}` : p.draft ? `draft, ${s(p.state)}` : s(p.state);
  const mergeable = p.mergeable === null || p.mergeable === undefined ? "not yet known" : p.mergeable ? "yes" : "no";
  return [
    `#${s(p.number)}: ${s(p.title)}`,
    `State: ${state}; mergeable: ${mergeable}${p.mergeable_state ? ` (${s(p.mergeable_state)})` : ""}`,
    `Branches: ${s(head?.label) || s(head?.ref)} → ${s((p.base as Obj | undefined)?.ref)} (head ${s(head?.sha).slice(0, 7)})`,
    `Author: ${login(p.user)}, opened ${day(p.created_at)}; ${s(p.commits)} commits, +${s(p.additions)} −${s(p.deletions)} in ${s(p.changed_files)} files`,
    `URL: ${s(p.html_url)}`,
    "",
    s(p.body) || "(no description)",
    ...(files.length
      ? ["", "Files:", ...files.map((f) => `  ${s(f.status)} ${s(f.filename)} (+${s(f.additions)} −${s(f.deletions)})`)]
      : []),
  ].join("\n");
}

/** The lines of an answer, then where the page sits (list answers) and the rate limit. */
export function reply(
  lines: string[],
  answer: Answer<unknown>,
  page?: { page: number; perPage: number; shown: number },
) {
  const notes = [
    page ? pageNote(page.page, page.perPage, page.shown, answer.link) : undefined,
    rateLimitNote(answer.rateLimit),
  ].filter((n): n is string => n !== undefined);
  return [...lines, ...notes].join("\n");
}
