import { createInterface } from "node:readline/promises";
import { DEFAULTS } from "./options.js";
import { isTemplateName, TEMPLATE_NAMES, TEMPLATES, type TemplateName } from "./templates.js";

/** The questions the flags left open, asked at the terminal. */
export interface Asked {
  directory: string;
  template: TemplateName;
  install: boolean;
}

export async function ask(open: { directory: boolean; template: boolean; install: boolean }): Promise<Partial<Asked>> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answers: Partial<Asked> = {};
    if (open.directory) {
      answers.directory = (await rl.question(`Directory (${DEFAULTS.directory}): `)).trim() || DEFAULTS.directory;
    }
    if (open.template) {
      const list = TEMPLATE_NAMES.map((name, i) => `  ${i + 1}. ${name.padEnd(8)} ${TEMPLATES[name].summary}`);
      process.stderr.write(`Which kind of server?\n${list.join("\n")}\n`);
      for (;;) {
        const reply = (await rl.question(`Template (${DEFAULTS.template}): `)).trim();
        const chosen = reply === "" ? DEFAULTS.template : (TEMPLATE_NAMES[Number(reply) - 1] ?? reply);
        if (isTemplateName(chosen)) {
          answers.template = chosen;
          break;
        }
        process.stderr.write(`Answer with a number from 1 to ${TEMPLATE_NAMES.length}, or a template's name.\n`);
      }
    }
    if (open.install) {
      const reply = (await rl.question("Install the dependencies now? (Y/n) ")).trim().toLowerCase();
      answers.install = !reply.startsWith("n");
    }
    return answers;
  } finally {
    rl.close();
  }
}
