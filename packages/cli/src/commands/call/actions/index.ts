import type { ActionName } from "../invocation.js";
import { callTool } from "./call-tool.js";
import { complete } from "./complete.js";
import { info } from "./info.js";
import { listPrompts, listResources, listTemplates, listTools } from "./lists.js";
import { getPrompt } from "./prompt.js";
import { readResource } from "./read.js";
import type { Action } from "./session.js";
import { task } from "./task.js";
import { watch } from "./watch.js";

export const ACTIONS: Record<ActionName, Action> = {
  info,
  tools: listTools,
  resources: listResources,
  templates: listTemplates,
  prompts: listPrompts,
  call: callTool,
  read: readResource,
  prompt: getPrompt,
  complete,
  watch,
  task,
};
