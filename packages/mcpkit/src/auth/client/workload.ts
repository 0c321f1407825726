import { readFile } from "node:fs/promises";

/**
 * A workload identity token read from a file each time one is needed, as platforms
 * provide them: a Kubernetes projected service account token, a SPIFFE JWT-SVID written
 * by its helper. Re-reading picks up the platform's rotation.
 */
export function fileAssertion(path: string): () => Promise<string> {
  return async () => {
    const token = (await readFile(path, "utf8")).trim();
    if (!token) throw new Error(`${path} is empty`);
    return token;
  };
}
