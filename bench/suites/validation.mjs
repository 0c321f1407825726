// Validation cost (in process, bench/validation.mjs): zod vs JSON Schema vs none.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** @param {{ config: object, log: (line: string) => void }} context */
export function validationSuite({ config, log }) {
  log("validation: zod vs JSON Schema vs none, in process");
  const output = execFileSync(process.execPath, [fileURLToPath(new URL("../validation.mjs", import.meta.url))], {
    encoding: "utf8",
    env: {
      ...process.env,
      BENCH_VALIDATION_ROUNDS: String(config.validation.rounds),
      BENCH_VALIDATION_CALLS: String(config.validation.calls),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(output.trim().split("\n").at(-1));
}
