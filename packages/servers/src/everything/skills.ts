import type { McpServer } from "mcpkit/server";

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1.0"
---

# PDF processing

Read [the forms guide](references/FORMS.md) before filling a form, and pick a template
from \`templates/\`.
`;

/** The Skills extension (SEP-2640): one skill with a supporting file and a subdirectory. */
export function registerSkills(server: McpServer): void {
  server.skill("pdf-processing", {
    files: {
      "SKILL.md": SKILL_MD,
      "references/FORMS.md": "# Forms\n\nFill every field the form marks as required.\n",
      "templates/invoice.md": "# Invoice\n\nNumber: {{number}}\n",
      "scripts/extract.py": 'print("extracting")\n',
    },
  });
}
