import { basename, extname } from "node:path";

/** Programming languages by file extension, for the code prompts. */
const BY_EXTENSION: Record<string, string> = {
  ".ts": "TypeScript",
  ".tsx": "TypeScript",
  ".mts": "TypeScript",
  ".cts": "TypeScript",
  ".js": "JavaScript",
  ".jsx": "JavaScript",
  ".mjs": "JavaScript",
  ".cjs": "JavaScript",
  ".py": "Python",
  ".rb": "Ruby",
  ".go": "Go",
  ".rs": "Rust",
  ".java": "Java",
  ".kt": "Kotlin",
  ".swift": "Swift",
  ".c": "C",
  ".h": "C",
  ".cc": "C++",
  ".cpp": "C++",
  ".hpp": "C++",
  ".cs": "C#",
  ".php": "PHP",
  ".sh": "Shell",
  ".bash": "Shell",
  ".sql": "SQL",
  ".html": "HTML",
  ".css": "CSS",
  ".scss": "SCSS",
  ".json": "JSON",
  ".yaml": "YAML",
  ".yml": "YAML",
  ".toml": "TOML",
  ".md": "Markdown",
  ".lua": "Lua",
  ".r": "R",
  ".scala": "Scala",
  ".dart": "Dart",
  ".ex": "Elixir",
  ".exs": "Elixir",
  ".hs": "Haskell",
  ".vue": "Vue",
  ".svelte": "Svelte",
};

const BY_NAME: Record<string, string> = { Dockerfile: "Dockerfile", Makefile: "Makefile" };

/** The names the prompts offer for completion of `language`. */
export const LANGUAGES: readonly string[] = [
  ...new Set([...Object.values(BY_EXTENSION), ...Object.values(BY_NAME)]),
].sort();

export const languageOfPath = (path: string): string | undefined =>
  BY_NAME[basename(path)] ?? BY_EXTENSION[extname(path).toLowerCase()];

/** An interpreter named by a shebang line, as a language. */
const SHEBANG: [RegExp, string][] = [
  [/\bpython[0-9.]*\b/, "Python"],
  [/\b(node|deno|bun)\b/, "JavaScript"],
  [/\b(bash|sh|zsh|dash)\b/, "Shell"],
  [/\bruby\b/, "Ruby"],
  [/\bperl\b/, "Perl"],
  [/\bphp\b/, "PHP"],
];

/**
 * Telltale constructs, scored: the language with the most matching signs wins; the order
 * breaks ties (TypeScript before JavaScript, whose signs it shares). A heuristic: a few
 * lines of code are often valid in several languages, so the prompt says it was guessed.
 */
const SIGNS: [string, RegExp[]][] = [
  ["PHP", [/<\?php/]],
  ["Go", [/^package \w+/m, /\bfunc (\(\w+ \*?\w+\) )?\w+\(/, /:= /, /\bfmt\.\w+\(/]],
  ["Rust", [/\bfn \w+\(/, /\blet mut\b/, /\bimpl\b/, /println!\(/, /->\s*[A-Z&]/, /\buse \w+::/]],
  [
    "TypeScript",
    [/\binterface \w+ \{/, /:\s*(string|number|boolean|void)\b/, /\btype \w+ =/, /\bimport type\b/, /<\w+>\(/],
  ],
  [
    "Python",
    [
      /^\s*def \w+\(.*\):\s*$/m,
      /^\s*(from \w+ )?import \w+/m,
      /\bself\b/,
      /^\s*class \w+.*:\s*$/m,
      /\bprint\(/,
      /\belif\b/,
    ],
  ],
  ["Java", [/\bpublic (static )?(class|void)\b/, /\bSystem\.out\.print/, /\bprivate final\b/, /@Override\b/]],
  ["C#", [/\busing System\b/, /\bnamespace \w+/, /\bConsole\.Write/, /\bpublic (async )?Task\b/]],
  ["C++", [/#include <\w+>/, /\bstd::/, /\bcout\b/, /\btemplate ?</]],
  ["C", [/#include <\w+\.h>/, /\bprintf\(/, /\bint main\(/, /\bmalloc\(/]],
  ["Ruby", [/^\s*def \w+(\(.*\))?\s*$/m, /^\s*end\s*$/m, /\bputs\b/, /\battr_accessor\b/]],
  [
    "JavaScript",
    [
      /\b(const|let|var) \w+ =/,
      /=> ?[{(]?/,
      /\bfunction \w*\(/,
      /\bconsole\.log\(/,
      /\brequire\(/,
      /\bexport (default )?/,
    ],
  ],
  ["SQL", [/^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE TABLE)\b/im, /\bFROM \w+/i, /\bWHERE\b/i]],
  ["Shell", [/^\s*(echo|export|cd|fi|done)\b/m, /\$\{?\w+\}?/, /\bthen\b/]],
  ["HTML", [/<(html|div|body|span|p)\b/i, /<\/\w+>/]],
  ["CSS", [/^\s*[.#]?[\w-]+\s*\{[^}]*:\s*[^}]+;/m]],
];

/** The language a piece of code is most likely in, or undefined when nothing tells. */
export function detectLanguage(code: string): string | undefined {
  const shebang = /^#!(.*)$/m.exec(code.trimStart().split("\n", 1)[0] ?? "");
  if (shebang) for (const [pattern, language] of SHEBANG) if (pattern.test(shebang[1] ?? "")) return language;
  let best: string | undefined;
  let bestScore = 0;
  for (const [language, signs] of SIGNS) {
    const score = signs.filter((s) => s.test(code)).length;
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}
