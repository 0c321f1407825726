import { z } from "zod";
import { createServer, structured, toolError } from "../../src/server/index.js";

// The compile-time budget (checked by budget.test.ts): fifty tools, each with zod input and
// output schemas, in one server, type-check without TS2589 ("excessively deep") and fast.

export const server = createServer({ name: "fifty", version: "1" });

server.tool(
  "tool_0",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 1 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_1",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 2 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_2",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 3 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_3",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 4 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_4",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 5 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_5",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 6 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_6",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 7 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_7",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 8 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_8",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 9 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_9",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 10 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_10",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 11 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_11",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 12 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_12",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 13 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_13",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 14 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_14",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 15 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_15",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 16 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_16",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 17 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_17",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 18 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_18",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 19 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_19",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 20 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_20",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 21 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_21",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 22 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_22",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 23 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_23",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 24 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_24",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 25 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_25",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 26 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_26",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 27 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_27",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 28 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_28",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 29 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_29",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 30 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_30",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 31 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_31",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 32 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_32",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 33 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_33",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 34 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_34",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 35 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_35",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 36 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_36",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 37 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_37",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 38 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_38",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 39 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_39",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 40 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_40",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 41 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_41",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 42 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_42",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 43 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_43",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 44 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_44",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 45 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_45",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 46 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_46",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 47 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_47",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 48 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_48",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 49 + (tags?.length ?? 0) }),
);

server.tool(
  "tool_49",
  {
    input: z.object({ id: z.string(), count: z.number().int().min(0), tags: z.array(z.string()).optional() }),
    output: z.object({ id: z.string(), total: z.number(), note: z.string().optional() }),
  },
  ({ id, count, tags }) =>
    count < 0 ? toolError("negative") : structured({ id, total: count * 50 + (tags?.length ?? 0) }),
);
