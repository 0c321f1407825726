// The one tool every benchmark server exposes, with the same schema everywhere: the
// frameworks declare it with zod as `z.object({ text: z.string() })`, the bare baselines
// publish this JSON Schema. (No zod import here: the bare servers must not pay for it.)
export const NAME = "echo";
export const DESCRIPTION = "Echoes the text back";
export const INPUT_JSON_SCHEMA = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
};
