import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for GitHub's REST API and OAuth web flow, answering in the shapes
 * GitHub documents (written from docs.github.com's response schemas, trimmed to the fields
 * that matter): pagination by page/per_page with a Link header (rel next, prev, first,
 * last), the x-ratelimit-* headers on every answer with a budget per identity and resource
 * (60 an hour anonymous, 5,000 with a token, 30 for search, 10 for code search), the
 * primary limit as 403 with remaining 0 and the secondary one as 403 with retry-after,
 * 401 for bad or missing credentials, 403 with x-accepted-github-permissions for a token
 * that may not write, 404, 405 (not mergeable), 409 and 422 with GitHub's error bodies.
 */

type Obj = Record<string, unknown>;
const DOCS = "https://docs.github.com/rest";
const OWNER = "octocat";
const WEB = "https://github.com";
const DAY = "2026-01-15T10:00:00Z";

export const OAUTH_APP = { clientId: "Iv1.8a61f9b3a7aba766", clientSecret: "fake-client-secret" };

const user = (login: string, id: number) => ({
  login,
  id,
  node_id: `MDQ6VXNlcj${id}`,
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  html_url: `${WEB}/${login}`,
  type: login === OWNER ? "Organization" : "User",
  site_admin: false,
});
const ADA = user("ada", 583231);
const GRACE = user("grace", 583232);

interface Repository {
  name: string;
  description: string;
  language: string;
  stars: number;
}
const REPOSITORIES: Repository[] = [
  { name: "Hello-World", description: "My first repository on GitHub", language: "JavaScript", stars: 80 },
  { name: "mcp-tools", description: "Tools for the Model Context Protocol", language: "TypeScript", stars: 1420 },
  { name: "weather-mcp", description: "An MCP server for the weather", language: "Python", stars: 12 },
];

function repoJson(api: string, r: Repository, i: number): Obj {
  return {
    id: 1296269 + i,
    node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
    name: r.name,
    full_name: `${OWNER}/${r.name}`,
    owner: user(OWNER, 9919),
    private: false,
    html_url: `${WEB}/${OWNER}/${r.name}`,
    description: r.description,
    fork: false,
    url: `${api}/repos/${OWNER}/${r.name}`,
    created_at: "2011-01-26T19:01:12Z",
    updated_at: DAY,
    pushed_at: DAY,
    stargazers_count: r.stars,
    watchers_count: r.stars,
    language: r.language,
    forks_count: 9,
    open_issues_count: 59,
    archived: false,
    disabled: false,
    visibility: "public",
    default_branch: "main",
    topics: ["mcp"],
    score: 1,
  };
}

const label = (name: string, color: string) => ({ id: name.length, name, color, default: false, description: null });

/** Issues 1–65 of Hello-World; every fifth is a pull request; 60 and up are closed. */
function issueJson(api: string, n: number, comments = n === 7 ? 2 : 0): Obj {
  const base = `${api}/repos/${OWNER}/Hello-World`;
  const isPull = n % 5 === 0;
  return {
    url: `${base}/issues/${n}`,
    repository_url: base,
    html_url: `${WEB}/${OWNER}/Hello-World/${isPull ? "pull" : "issues"}/${n}`,
    id: 1000 + n,
    node_id: "MDU6SXNzdWUx",
    number: n,
    title: isPull ? `Pull request ${n}` : n === 7 ? "Login fails with a long password" : `Issue ${n}`,
    user: n % 2 ? ADA : GRACE,
    labels: n === 7 ? [label("bug", "d73a4a")] : n % 3 === 0 ? [label("docs", "0075ca")] : [],
    state: n >= 60 ? "closed" : "open",
    locked: false,
    assignees: n === 7 ? [GRACE] : [],
    comments,
    created_at: "2026-01-10T09:00:00Z",
    updated_at: DAY,
    closed_at: n >= 60 ? DAY : null,
    author_association: "MEMBER",
    state_reason: n >= 60 ? "completed" : null,
    body: n === 7 ? "Passwords over 72 bytes are cut by bcrypt." : null,
    ...(isPull && {
      pull_request: {
        url: `${base}/pulls/${n}`,
        html_url: `${WEB}/${OWNER}/Hello-World/pull/${n}`,
        diff_url: `${WEB}/${OWNER}/Hello-World/pull/${n}.diff`,
        patch_url: `${WEB}/${OWNER}/Hello-World/pull/${n}.patch`,
        merged_at: null,
      },
    }),
  };
}

function pullJson(api: string, n: number): Obj {
  const base = `${api}/repos/${OWNER}/Hello-World`;
  const merged = n === 15;
  const mergeable = n !== 10;
  const branch = (ref: string, sha: string) => ({ label: `${OWNER}:${ref}`, ref, sha, user: user(OWNER, 9919) });
  return {
    url: `${base}/pulls/${n}`,
    id: 2000 + n,
    html_url: `${WEB}/${OWNER}/Hello-World/pull/${n}`,
    number: n,
    state: merged ? "closed" : "open",
    locked: false,
    title: `Pull request ${n}`,
    user: ADA,
    body: n === 5 ? "Adds the login page." : null,
    created_at: "2026-01-10T09:00:00Z",
    updated_at: DAY,
    closed_at: merged ? DAY : null,
    merged_at: merged ? DAY : null,
    merge_commit_sha: merged ? "e5bd3914e2e596debea16f433f57875b5b90bcd6" : null,
    draft: false,
    head: branch(`feature-${n}`, "6dcb09b5b57875f334f61aebed695e2e4193db5e"),
    base: branch("main", "4c7a3c8ee9b7e1fb4e3a0c5e5f9a1d1e3b0a2c7d"),
    merged,
    mergeable: merged ? null : mergeable,
    mergeable_state: merged ? "unknown" : mergeable ? "clean" : "dirty",
    merged_by: merged ? GRACE : null,
    comments: 0,
    review_comments: 0,
    commits: 3,
    additions: 120,
    deletions: 7,
    changed_files: 2,
  };
}

const FILES: Record<string, { text?: string; bytes?: Buffer; size?: number }> = {
  README: { text: "Hello World!\n" },
  "README.md": { text: "# Hello World\n\nHello, octocats.\n" },
  "src/app.js": { text: "console.log('hello');\n" },
  "logo.png": { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) },
  "video.bin": { size: 3 * 1024 * 1024 },
};

function contentJson(api: string, path: string, ref: string): Obj | Obj[] | undefined {
  const entry = (name: string, type: string, size = 0) => ({
    type,
    size,
    name: name.split("/").pop(),
    path: name,
    sha: "3d21ec53a331a6f037a91c368710b99387d012c1",
    url: `${api}/repos/${OWNER}/Hello-World/contents/${name}?ref=${ref}`,
    html_url: `${WEB}/${OWNER}/Hello-World/${type === "dir" ? "tree" : "blob"}/${ref}/${name}`,
    download_url: type === "file" ? `https://raw.githubusercontent.com/${OWNER}/Hello-World/${ref}/${name}` : null,
  });
  const file = FILES[path];
  if (file) {
    const bytes = file.bytes ?? Buffer.from(file.text ?? "");
    const size = file.size ?? bytes.length;
    // Over 1 MB the contents API leaves the content out (encoding "none").
    if (size > 1024 * 1024) return { ...entry(path, "file", size), encoding: "none", content: "" };
    const b64 = bytes.toString("base64").replace(/.{60}/g, "$&\n");
    return { ...entry(path, "file", size), encoding: "base64", content: `${b64}\n` };
  }
  const prefix = path === "" ? "" : `${path}/`;
  const children = new Map<string, Obj>();
  for (const [name, f] of Object.entries(FILES)) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) children.set(rest, entry(name, "file", f.size ?? (f.bytes ?? Buffer.from(f.text ?? "")).length));
    else children.set(rest.slice(0, slash), entry(prefix + rest.slice(0, slash), "dir"));
  }
  return children.size > 0 ? [...children.values()] : undefined;
}

interface Identity {
  key: string;
  login?: string;
  write: boolean;
}

export interface FakeGitHub {
  url: string;
  /** What was asked: method, path with query, and the credentials sent. */
  requests: { method: string; url: string; authorization: string | undefined; body: unknown }[];
  /** Tokens GitHub knows; `write` says whether the token may write. */
  addToken(token: string, options?: { login?: string; write?: boolean }): void;
  /** Uses up the primary rate limit of an identity ("anonymous" or a token). */
  exhaust(identity: string, resource?: string): void;
  /** The next request hits the secondary rate limit. */
  secondaryLimitNext(): void;
  /** The next request gets this answer. */
  failNext(status: number, body: unknown): void;
  /** The next request is never answered. */
  hangNext(): void;
  /** Access tokens issued through the OAuth flow. */
  issued: string[];
  close(): Promise<void>;
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const tokens = new Map<string, { login: string; write: boolean }>();
  const used = new Map<string, number>();
  const exhausted = new Set<string>();
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const issued: string[] = [];
  const requests: FakeGitHub["requests"] = [];
  let secondary = false;
  let failure: { status: number; body: unknown } | undefined;
  let hang = false;
  const hanging = new Set<ServerResponse>();
  let api = "";
  const resetAt = Math.floor(Date.now() / 1000) + 3600;

  const limits = (identity: Identity, resource: string) => {
    const limit =
      resource === "search" ? 30 : resource === "code_search" ? 10 : identity.key === "anonymous" ? 60 : 5000;
    const key = `${identity.key} ${resource}`;
    const count = exhausted.has(key) ? limit : (used.get(key) ?? 0) + 1;
    used.set(key, count);
    return {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - count)),
      "x-ratelimit-reset": String(resetAt),
      "x-ratelimit-used": String(Math.min(count, limit)),
      "x-ratelimit-resource": resource,
      exhausted: count >= limit && exhausted.has(key),
    };
  };

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
  }
  const error = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
    extra: Obj = {},
  ) => send(res, status, { message, documentation_url: DOCS, status: String(status), ...extra }, headers);

  /** GitHub's Link header for page `page` of `pages`, built on the request's own URL. */
  function link(url: URL, page: number, pages: number): string | undefined {
    const at = (p: number) => {
      const u = new URL(url.pathname + url.search, api);
      u.searchParams.set("page", String(p));
      return `<${u.href}>`;
    };
    const parts: string[] = [];
    if (page > 1) parts.push(`${at(page - 1)}; rel="prev"`);
    if (page < pages) parts.push(`${at(page + 1)}; rel="next"`, `${at(pages)}; rel="last"`);
    if (page > 1) parts.push(`${at(1)}; rel="first"`);
    return parts.length ? parts.join(", ") : undefined;
  }

  function paginate<T>(url: URL, items: T[]): { page: T[]; link: string | undefined } {
    const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
    const page = Number(url.searchParams.get("page") ?? 1);
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    return { page: items.slice((page - 1) * perPage, page * perPage), link: link(url, page, pages) };
  }

  const words = (q: string) =>
    q
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w && !w.includes(":"));

  async function readBody(req: IncomingMessage): Promise<string> {
    let body = "";
    for await (const chunk of req) body += chunk;
    return body;
  }

  /** The OAuth web flow at /login/oauth (docs.github.com: Authorizing OAuth apps), with PKCE. */
  function oauth(req: IncomingMessage, url: URL, body: string, res: ServerResponse) {
    if (url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== OAUTH_APP.clientId) return void res.writeHead(404).end("Not Found");
      const redirect = new URL(q.get("redirect_uri") ?? "");
      const code = randomBytes(10).toString("hex");
      codes.set(code, { challenge: q.get("code_challenge") ?? "", redirectUri: redirect.href });
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", q.get("state") ?? "");
      return void res.writeHead(302, { location: redirect.href }).end();
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      // GitHub answers token errors with 200 and an error body.
      if (form.get("client_secret") !== OAUTH_APP.clientSecret || form.get("client_id") !== OAUTH_APP.clientId)
        return send(res, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri"))
        return send(res, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      const token = `gho_${randomBytes(12).toString("hex")}`;
      tokens.set(token, { login: "ada", write: true });
      issued.push(token);
      return send(res, 200, { access_token: token, token_type: "bearer", scope: form.get("scope") ?? "repo" });
    }
    res.writeHead(404).end("Not Found");
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const text = await readBody(req);
    const authorization = req.headers.authorization;
    requests.push({
      method: req.method ?? "GET",
      url: url.pathname + url.search,
      authorization,
      body: text ? JSON.parse(text.startsWith("{") ? text : "null") : undefined,
    });
    if (url.pathname.startsWith("/login/oauth/")) return oauth(req, url, text, res);
    if (hang) {
      hang = false;
      return void hanging.add(res);
    }

    const token = /^(?:token|bearer) (.+)$/i.exec(authorization ?? "")?.[1];
    if (token !== undefined && !tokens.has(token)) return error(res, 401, "Bad credentials");
    const known = token === undefined ? undefined : tokens.get(token);
    const identity: Identity = { key: token ?? "anonymous", login: known?.login, write: known?.write ?? false };
    const resource =
      url.pathname === "/search/code" ? "code_search" : url.pathname.startsWith("/search/") ? "search" : "core";
    const { exhausted: out, ...rate } = limits(identity, resource);
    if (out)
      return error(
        res,
        403,
        token
          ? `API rate limit exceeded for user ID 583231.`
          : "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
        rate,
      );
    if (secondary) {
      secondary = false;
      return error(
        res,
        403,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        { ...rate, "retry-after": "60" },
      );
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return send(res, f.status, f.body, rate);
    }
    const body = (text ? JSON.parse(text) : {}) as Obj;
    const ok = (data: unknown, more: Record<string, string | undefined> = {}, status = 200) =>
      send(res, status, data, {
        ...rate,
        ...(Object.fromEntries(Object.entries(more).filter(([, v]) => v !== undefined)) as Record<string, string>),
      });
    const notFound = () => error(res, 404, "Not Found", rate);
    const mayWrite = (permission: string) => {
      if (!token) {
        error(res, 401, "Requires authentication", rate);
        return false;
      }
      if (!identity.write) {
        error(res, 403, "Resource not accessible by personal access token", {
          ...rate,
          "x-accepted-github-permissions": permission,
        });
        return false;
      }
      return true;
    };

    const path = url.pathname;
    // The signed-in user (docs.github.com: Get the authenticated user).
    if (path === "/user") {
      if (!token) return error(res, 401, "Requires authentication", rate);
      return ok(known?.login === "grace" ? GRACE : ADA);
    }
    if (path === "/search/repositories") {
      const wanted = words(url.searchParams.get("q") ?? "");
      const found = REPOSITORIES.map((r, i) => repoJson(api, r, i)).filter((r) =>
        wanted.every((w) => `${r.name} ${r.description}`.toLowerCase().includes(w)),
      );
      if (url.searchParams.get("sort") === "stars")
        found.sort((a, b) => Number(b.stargazers_count) - Number(a.stargazers_count));
      const { page, link: l } = paginate(url, found);
      return ok({ total_count: found.length, incomplete_results: false, items: page }, { link: l });
    }
    if (path === "/search/code") {
      if (!token) return error(res, 401, "Requires authentication", rate);
      const wanted = words(url.searchParams.get("q") ?? "");
      const items = Object.entries(FILES)
        .filter(([_name, f]) => f.text && wanted.every((w) => (f.text ?? "").toLowerCase().includes(w)))
        .map(([name]) => ({
          name: name.split("/").pop(),
          path: name,
          sha: "3d21ec53a331a6f037a91c368710b99387d012c1",
          url: `${api}/repos/${OWNER}/Hello-World/contents/${name}`,
          html_url: `${WEB}/${OWNER}/Hello-World/blob/main/${name}`,
          repository: repoJson(api, REPOSITORIES[0] as Repository, 0),
          score: 1,
        }));
      return ok({ total_count: items.length, incomplete_results: false, items });
    }
    if (path === "/search/issues") {
      const wanted = words(url.searchParams.get("q") ?? "");
      const all = Array.from({ length: 65 }, (_, i) => issueJson(api, i + 1)).filter((i) =>
        wanted.every((w) => String(i.title).toLowerCase().includes(w)),
      );
      const { page, link: l } = paginate(url, all);
      // GitHub says when its search ran out of time; the fake does for the query "slow".
      return ok({ total_count: all.length, incomplete_results: wanted.includes("slow"), items: page }, { link: l });
    }

    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    if (!m || m[1] !== OWNER || !REPOSITORIES.some((r) => r.name === m[2])) return notFound();
    const rest = m[3] ?? "";
    const hello = m[2] === "Hello-World";

    if (rest.startsWith("/contents")) {
      if (!hello) return notFound();
      const found = contentJson(
        api,
        decodeURIComponent(rest.slice("/contents".length).replace(/^\//, "")),
        url.searchParams.get("ref") ?? "main",
      );
      return found ? ok(found) : notFound();
    }
    if (rest === "/issues" && req.method === "GET") {
      const state = url.searchParams.get("state") ?? "open";
      const all = (hello ? Array.from({ length: 65 }, (_, i) => issueJson(api, 65 - i)) : []).filter(
        (i) => state === "all" || i.state === state,
      );
      const labels = url.searchParams.get("labels")?.split(",") ?? [];
      const matching = all.filter((i) =>
        labels.every((l) => (i.labels as { name: string }[]).some((x) => x.name === l)),
      );
      const { page, link: l } = paginate(url, matching);
      return ok(page, { link: l });
    }
    if (rest === "/issues" && req.method === "POST") {
      if (!mayWrite("issues=write")) return;
      if (typeof body.title !== "string" || body.title === "")
        return error(res, 422, "Validation Failed", rate, {
          errors: [{ resource: "Issue", code: "missing_field", field: "title" }],
        });
      return ok(
        { ...issueJson(api, 66), title: body.title, body: body.body ?? null, user: user(identity.login ?? "ada", 1) },
        {},
        201,
      );
    }
    const issue = /^\/issues\/(\d+)$/.exec(rest);
    if (issue && hello) {
      const number = Number(issue[1]);
      return number >= 1 && number <= 65 ? ok(issueJson(api, number)) : notFound();
    }
    const commented = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (commented && hello) {
      const number = Number(commented[1]);
      if (number < 1 || number > 65) return notFound();
      if (req.method === "POST") {
        if (!mayWrite("issues=write")) return;
        return ok(
          {
            id: 9001,
            html_url: `${WEB}/${OWNER}/Hello-World/issues/${number}#issuecomment-9001`,
            body: body.body,
            user: ADA,
            created_at: DAY,
          },
          {},
          201,
        );
      }
      const comments =
        number === 7
          ? [
              {
                id: 1,
                user: GRACE,
                created_at: "2026-01-11T08:00:00Z",
                body: "I can reproduce it with 80 characters.",
              },
              { id: 2, user: ADA, created_at: "2026-01-12T08:00:00Z", body: "Fixed in #10." },
            ]
          : [];
      const { page, link: l } = paginate(url, comments);
      return ok(page, { link: l });
    }
    if (rest === "/pulls" && req.method === "GET") {
      const state = url.searchParams.get("state") ?? "open";
      const all = (hello ? [5, 10, 15, 20] : [])
        .map((x) => pullJson(api, x))
        .filter((p) => state === "all" || p.state === state);
      const { page, link: l } = paginate(url, all);
      return ok(page, { link: l });
    }
    if (rest === "/pulls" && req.method === "POST") {
      if (!mayWrite("pull_requests=write")) return;
      if (body.head === body.base || !String(body.head ?? "").startsWith("feature"))
        return error(res, 422, "Validation Failed", rate, {
          errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
        });
      return ok(
        { ...pullJson(api, 66), title: body.title, body: body.body ?? null, draft: body.draft === true },
        {},
        201,
      );
    }
    const n = /^\/pulls\/(\d+)(\/files|\/reviews|\/merge)?$/.exec(rest);
    if (n && hello) {
      const number = Number(n[1]);
      if (![5, 10, 15, 20].includes(number)) return notFound();
      const pull = pullJson(api, number);
      if (n[2] === "/files") {
        const files = [
          {
            sha: "bbcd538c8e72b8c175046e27cc8f907076331401",
            filename: "src/login.js",
            status: "added",
            additions: 100,
            deletions: 0,
            changes: 100,
          },
          {
            sha: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
            filename: "README.md",
            status: "modified",
            additions: 20,
            deletions: 7,
            changes: 27,
          },
        ];
        return ok(files);
      }
      if (n[2] === "/reviews") {
        if (!mayWrite("pull_requests=write")) return;
        if (body.event !== "APPROVE" && !body.body)
          return error(res, 422, "Unprocessable Entity", rate, { errors: ["Review body is required for this event"] });
        const state = { APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED", COMMENT: "COMMENTED" }[
          String(body.event)
        ];
        return ok({
          id: 80,
          user: identity.login ? user(identity.login, 1) : ADA,
          body: body.body ?? "",
          state,
          html_url: `${pull.html_url}#pullrequestreview-80`,
        });
      }
      if (n[2] === "/merge") {
        if (!mayWrite("contents=write")) return;
        if (pull.merged) return error(res, 405, "Pull Request is not mergeable", rate);
        if (!pull.mergeable) return error(res, 405, "Pull Request is not mergeable", rate);
        if (body.sha !== undefined && body.sha !== (pull.head as Obj).sha)
          return error(res, 409, "Head branch was modified. Review and try the merge again.", rate);
        return ok({
          sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e",
          merged: true,
          message: "Pull Request successfully merged",
        });
      }
      return ok(pull);
    }
    notFound();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: api,
    requests,
    issued,
    addToken: (token, options = {}) =>
      tokens.set(token, { login: options.login ?? "ada", write: options.write ?? true }),
    exhaust: (identity, resource = "core") => exhausted.add(`${identity} ${resource}`),
    secondaryLimitNext: () => {
      secondary = true;
    },
    failNext: (status, body) => {
      failure = { status, body };
    },
    hangNext: () => {
      hang = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
