import type { webcrypto } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { DPoPKey } from "mcpkit/auth";

type JsonWebKey = webcrypto.JsonWebKey;

/** P-256 for ES256, the algorithm mcpkit's OAuthClient prefers when an authorization server lists it. */
const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;

/**
 * The DPoP key `mcpkit call` proves possession with (RFC 9449), kept in a file readable by
 * its owner only (0600), beside the saved logins. Tokens are bound to the key, and so is a
 * public client's refresh token (§5): a new key in every process would make a saved login
 * unusable on the next run. The file is read, or made, only when a server first wants DPoP.
 */
export async function keptDPoPKey(path: string): Promise<DPoPKey> {
  const jwk = (await readKey(path)) ?? (await createKey(path));
  const { d: _private, ...publicJwk } = jwk;
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey("jwk", jwk, ALGORITHM, false, ["sign"]),
    crypto.subtle.importKey("jwk", publicJwk, ALGORITHM, true, ["verify"]),
  ]);
  return { alg: "ES256", keyPair: { privateKey, publicKey } };
}

async function readKey(path: string): Promise<JsonWebKey | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const jwk = (() => {
    try {
      return (JSON.parse(text) as { jwk?: JsonWebKey }).jwk;
    } catch {
      return undefined;
    }
  })();
  if (jwk?.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string")
    throw new Error(
      `${path} is not a DPoP key mcpkit made; delete it to start over (saved logins then need a new sign-in)`,
    );
  return jwk;
}

/**
 * Makes the key and writes it where no other process's key is: written to a temporary
 * file first and linked into place, which fails if another `mcpkit call` got there first;
 * then that one is used, so every process signs with the same key.
 */
async function createKey(path: string): Promise<JsonWebKey> {
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const { kty, crv, x, y, d } = jwk;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ alg: "ES256", jwk: { kty, crv, x, y, d } }, null, 2)}\n`, { mode: 0o600 });
  try {
    await link(temp, path);
    return { kty, crv, x, y, d };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readKey(path)) as JsonWebKey;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
