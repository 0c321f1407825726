import { z } from "zod";

/** The arguments the GitHub tools share. */

export const owner = z.string().min(1).max(100).describe("The account that owns the repository, such as octocat");
export const repo = z.string().min(1).max(100).describe("The repository's name, such as hello-world");
export const page = z.number().int().min(1).max(1000).describe("Which page (default 1)").optional();
export const perPage = z.number().int().min(1).max(100).describe("Items per page, up to 100 (default 30)").optional();
export const order = z.enum(["asc", "desc"]).describe("Sort order (default desc)").optional();

export const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: true } as const;
/** Adds to GitHub without changing or removing what is there (server/tools §annotations). */
export const ADDITIVE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;
/** Changes what is there in a way that is not simply undone. */
export const DESTRUCTIVE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/** The page and size a list call asks for, and echoes in its page note. */
export const paging = (args: { page?: number | undefined; perPage?: number | undefined }) => ({
  page: args.page ?? 1,
  perPage: args.perPage ?? 30,
});
