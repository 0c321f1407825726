import Fastify, { type FastifyInstance } from "fastify";

/** What an API received, as the tests check it on the API's side. */
export interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface RunningApi {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

async function listen(app: FastifyInstance, received: Received[]): Promise<RunningApi> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, close: () => app.close() };
}

function recording(): { app: FastifyInstance; received: Received[] } {
  const app = Fastify();
  const received: Received[] = [];
  // Every body is kept as bytes; each route reads it the way its content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
  app.addHook("preHandler", async (req) => {
    received.push({ method: req.method, url: req.url, headers: req.headers, body: req.body });
  });
  return { app, received };
}

const json = (body: unknown): unknown => JSON.parse(Buffer.from(body as Buffer).toString("utf8"));

/** The Swagger Petstore of fixtures/petstore.yaml, under /api/v3, with an in-memory store. */
export async function startPetstore(): Promise<RunningApi> {
  const { app, received } = recording();
  const pets = new Map<number, Record<string, unknown>>([
    [1, { id: 1, name: "Rex", photoUrls: [], status: "available", tags: [{ id: 1, name: "tag1" }] }],
    [2, { id: 2, name: "Tom", photoUrls: [], status: "sold", tags: [{ id: 2, name: "tag2" }] }],
  ]);
  const users = new Map<string, Record<string, unknown>>();
  app.register(
    async (api) => {
      api.post("/pet", async (req, reply) => {
        const pet = json(req.body) as Record<string, unknown>;
        if (typeof pet.name !== "string") return reply.code(400).send({ code: 400, message: "name is required" });
        const id = typeof pet.id === "number" ? pet.id : pets.size + 1;
        pets.set(id, { ...pet, id });
        return pets.get(id);
      });
      api.get("/pet/findByStatus", async (req) => {
        const { status = "available" } = req.query as { status?: string };
        return [...pets.values()].filter((p) => p.status === status);
      });
      api.get("/pet/findByTags", async (req) => {
        const raw = (req.query as { tags?: string | string[] }).tags ?? [];
        const tags = Array.isArray(raw) ? raw : [raw];
        return [...pets.values()].filter((p) => (p.tags as { name: string }[]).some((t) => tags.includes(t.name)));
      });
      api.get("/pet/:petId", async (req, reply) => {
        const pet = pets.get(Number((req.params as { petId: string }).petId));
        return pet ?? reply.code(404).send({ code: 404, type: "error", message: "Pet not found" });
      });
      api.delete("/pet/:petId", async (req, reply) => {
        if (req.headers.api_key !== "special-key") return reply.code(401).send({ message: "api_key required" });
        const deleted = pets.delete(Number((req.params as { petId: string }).petId));
        return deleted ? reply.code(200).send() : reply.code(404).send({ message: "Pet not found" });
      });
      api.post("/pet/:petId/uploadImage", async (req) => {
        const bytes = req.body as Buffer;
        const { additionalMetadata } = req.query as { additionalMetadata?: string };
        return { code: 200, type: "upload", message: `${additionalMetadata ?? ""}: ${bytes.length} bytes` };
      });
      api.get("/store/inventory", async (req, reply) => {
        if (req.headers.api_key !== "special-key") return reply.code(401).send({ message: "api_key required" });
        const counts: Record<string, number> = {};
        for (const pet of pets.values()) counts[pet.status as string] = (counts[pet.status as string] ?? 0) + 1;
        return counts;
      });
      api.post("/user", async (req) => {
        const user = json(req.body) as Record<string, unknown>;
        users.set(user.username as string, user);
        const { password: _hidden, ...shown } = user;
        return { ...shown, id: users.size };
      });
      api.get("/user/login", async (_req, reply) =>
        reply.header("X-Rate-Limit", "5000").type("application/json").send(JSON.stringify("token-1")),
      );
    },
    { prefix: "/api/v3" },
  );
  return listen(app, received);
}

/** The API of fixtures/kitchen.json: echoes what it received, and misbehaves on request. */
export async function startKitchen(options: { elsewhere?: string } = {}): Promise<RunningApi> {
  const { app, received } = recording();
  const echo = (req: { method: string; url: string; headers: Received["headers"] }, body: unknown) => ({
    method: req.method,
    url: req.url,
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
    body,
  });
  app.get("/echo/*", async (req) => echo(req, null));
  app.get("/files/*", async (req) => echo(req, null));
  app.post("/notes", async (req, reply) =>
    reply.code(201).send(echo(req, Object.fromEntries(new URLSearchParams(String(req.body)).entries()))),
  );
  app.put("/notes", async (req) => echo(req, json(req.body)));
  app.post("/files", async (req) => {
    const form = await new Request("http://kitchen/files", {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"]) },
      body: req.body as Buffer,
    }).formData();
    const parts: Record<string, unknown> = {};
    for (const [name, value] of form.entries())
      parts[name] =
        typeof value === "string"
          ? value
          : {
              filename: value.name,
              type: value.type,
              base64: Buffer.from(await value.arrayBuffer()).toString("base64"),
            };
    return echo(req, parts);
  });
  app.post("/text", async (req, reply) => reply.type("text/plain").send(`you said: ${String(req.body)}`));
  app.put("/files/:name", async (req) => echo(req, (req.body as Buffer).toString("base64")));
  app.get("/tree", async () => ({ name: "root", children: [{ name: "leaf", children: [] }] }));
  app.route({
    method: ["GET", "POST"],
    url: "/status/:code",
    handler: async (req, reply) => {
      const code = Number((req.params as { code: string }).code);
      return reply.code(code).send({ error: `status ${code}`, detail: "as you asked" });
    },
  });
  app.get("/redirect", async (req, reply) => {
    const to = (req.query as { to: string }).to;
    return reply.redirect(to === "elsewhere" ? (options.elsewhere ?? "http://127.0.0.2:9/") : to, 302);
  });
  app.get("/big", async (req, reply) => {
    const bytes = Number((req.query as { bytes?: string }).bytes ?? 1_000_000);
    return reply.type("text/plain").send("x".repeat(bytes));
  });
  app.get("/slow", async (req) => {
    // Answers only when the client goes away: a request the caller must time out.
    await new Promise<void>((resolve) => req.raw.on("close", () => resolve()));
    return "late";
  });
  return listen(app, received);
}
