import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { TemplateValue, TemplateVariablesOf } from "../../src/index.js";
import { createServer, structured, text, toolError } from "../../src/server/index.js";

// Checked by the compiler (tsc -p tsconfig.test.json, part of npm test): each
// `@ts-expect-error` fails the type check if the mistake below it ever compiles again.
// The bodies also run under vitest, where they only register definitions.

const server = createServer({ name: "types", version: "1" });
const output = z.object({ sum: z.number() });

describe("tools with an output schema", () => {
  it("accept every documented builder", () => {
    server.tool("add", { input: z.object({ a: z.number(), b: z.number() }), output }, ({ a, b }) => {
      if (a < 0) return toolError("only positive numbers");
      return structured({ sum: a + b });
    });
    server.tool("both", { output }, async () => ({ content: [text("3")], structuredContent: { sum: 3 } }));
    server.tool("fails", { output }, () => ({ content: [text("no")], isError: true as const }));
  });

  it("refuse a result that carries no structured content", () => {
    // @ts-expect-error a plain string has no structuredContent
    server.tool("s1", { output }, () => "3");
    // @ts-expect-error content alone has no structuredContent
    server.tool("s2", { output }, () => ({ content: [text("3")] }));
    // @ts-expect-error structuredContent of the wrong shape
    server.tool("s3", { output }, () => structured({ total: 3 }));
    // @ts-expect-error a misspelt field
    server.tool("s4", { output }, () => ({ structuredContent: { summ: 3 } }));
  });

  it("leave tools without one as they were", () => {
    server.tool("plain", {}, () => "text");
    server.tool("result", {}, () => ({ content: [text("a")], structuredContent: { any: 1 } }));
    server.tool("error", {}, () => toolError("nope"));
    server.tool("later", {}, () => new Promise<string>((resolve) => resolve("done")));
  });
});

describe("prompt arguments", () => {
  it("are typed from their declaration: required ones as string, others optional", () => {
    server.prompt("review", { args: { code: { required: true }, style: { description: "house style" } } }, (args) => {
      expectTypeOf(args.code).toEqualTypeOf<string>();
      expectTypeOf(args.style).toEqualTypeOf<string | undefined>();
      // @ts-expect-error a misspelt argument
      return `${args.cdoe}`;
    });
  });

  it("limit completion to declared arguments", () => {
    server.prompt(
      "lang",
      { args: { language: { required: true } }, complete: { language: () => ["en", "fr"] } },
      ({ language }) => language,
    );
    server.prompt(
      "lang2",
      // @ts-expect-error completion for an argument the prompt does not declare
      { args: { language: { required: true } }, complete: { langauge: () => ["en"] } },
      ({ language }) => language,
    );
  });

  it("take a schema's type", () => {
    server.prompt("schema", { args: z.object({ topic: z.string() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string }>();
      return args.topic;
    });
  });
});

describe("resource template variables", () => {
  it("are read from the template's text", () => {
    expectTypeOf<TemplateVariablesOf<"users://{id}/posts/{post}">>().toEqualTypeOf<{
      id: TemplateValue;
      post: TemplateValue;
    }>();
    expectTypeOf<TemplateVariablesOf<"file:///{+path}{?rev,lines:3}">>().toEqualTypeOf<{
      path: TemplateValue;
      rev?: TemplateValue;
      lines?: TemplateValue;
    }>();
    expectTypeOf<TemplateVariablesOf<"tree://{/segments*}">>().toEqualTypeOf<{ segments: string[] }>();
    server.resourceTemplate("users://{id}/posts/{post}", { name: "post" }, (_uri, { id, post }) => `${id}/${post}`);
  });

  it("refuse a misspelt variable, in the handler and in complete", () => {
    server.resourceTemplate("users://{id}", { name: "user" }, (_uri, variables) => {
      // @ts-expect-error `user` is not a variable of this template
      return String(variables.user);
    });
    server.resourceTemplate(
      "people://{id}",
      // @ts-expect-error completion for a variable the template does not have
      { name: "user2", complete: { ids: () => [] } },
      () => "",
    );
    server.resourceTemplate("members://{id}", { name: "user3", complete: { id: () => ["1"] } }, () => "");
  });

  it("stay a record of strings when the template is not a literal", () => {
    const dynamic: string = "teams://{id}";
    server.resourceTemplate(dynamic, { name: "dynamic" }, (_uri, variables) => {
      expectTypeOf(variables).toEqualTypeOf<Record<string, TemplateValue>>();
      return "";
    });
  });
});
