import type { McpServer } from "mcpkit/server";
import { RED_PIXEL_PNG } from "./media.js";

const WORDS = ["paris", "park", "party", "pasta", "patio", "peace", "pepper", "piano", "pizza", "planet"];

export function registerPrompts(server: McpServer): void {
  server.prompt(
    "test_simple_prompt",
    { title: "Simple prompt", description: "A prompt without arguments" },
    () => "This is a simple prompt for testing.",
  );

  server.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two required arguments",
      args: {
        arg1: { description: "First test argument", required: true },
        arg2: { description: "Second test argument", required: true },
      },
      complete: {
        arg1: (value) => WORDS.filter((w) => w.startsWith(value.toLowerCase())),
        arg2: (value, { arguments: given }) =>
          WORDS.filter((w) => w.startsWith(value.toLowerCase()) && w !== given.arg1),
      },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );

  server.prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt embedding a resource",
      args: { resourceUri: { description: "URI of the resource to embed", required: true } },
    },
    ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: resourceUri as string,
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  );

  server.prompt("test_prompt_with_image", { description: "A prompt with an image" }, () => [
    { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ]);
}
