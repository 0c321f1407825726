import type { CompletedCommand, CompletionModel } from "./model.js";

/** A word list for the shell: single-quoted, inner single quotes escaped. */
const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const oneLine = (text: string) => text.split("\n")[0]?.replace(/\s+/g, " ").trim() ?? "";
const longFlags = (command: CompletedCommand) => command.options.flatMap((o) => o.flags);

/** bash: `source <(mcpkit completion bash)` in ~/.bashrc. */
export function bashScript(model: CompletionModel): string {
  const names = model.commands.map((c) => c.name).join(" ");
  const cases = model.commands
    .map((command) => {
      const valued = command.options.filter((o) => o.takesValue);
      // An option's value: one of its choices; anything else is left to readline (files).
      const values = [
        ...valued
          .filter((o) => o.choices.length > 0)
          .map(
            (o) => `${o.flags.join("|")}) COMPREPLY=($(compgen -W ${quote(o.choices.join(" "))} -- "$cur")); return ;;`,
          ),
        ...(valued.some((o) => o.choices.length === 0)
          ? [
              `${valued
                .filter((o) => o.choices.length === 0)
                .flatMap((o) => o.flags)
                .join("|")}) return ;;`,
            ]
          : []),
      ];
      const named = command.named ? " $(command mcpkit servers --names 2>/dev/null)" : "";
      return [
        `    ${command.name})`,
        ...(values.length > 0 ? ['      case "$prev" in', ...values.map((v) => `        ${v}`), "      esac"] : []),
        `      opts=${quote(longFlags(command).join(" "))}`,
        `      words="${command.words.join(" ")}${named}" ;;`,
      ].join("\n");
    })
    .join("\n");
  return `# mcpkit completion for bash. Load it in ~/.bashrc:  source <(mcpkit completion bash)
_mcpkit() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opts="" words=""
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W ${quote(`${names} --help --version`)} -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
# With no match, readline completes file names: modules, commands, paths.
complete -o default -F _mcpkit mcpkit
`;
}

/** zsh: `source <(mcpkit completion zsh)` in ~/.zshrc, after compinit. */
export function zshScript(model: CompletionModel): string {
  const described = (text: string) => oneLine(text).replace(/([[\]:\\])/g, "\\$1");
  const commands = model.commands.map(
    (c) => `    ${quote(`${c.name}:${oneLine(c.description).replaceAll(":", "\\:")}`)}`,
  );
  const cases = model.commands.map((command) => {
    const specs = command.options.map((option) => {
      const value = option.takesValue
        ? `:value:${option.choices.length > 0 ? `(${option.choices.join(" ")})` : ""}`
        : "";
      const names = option.flags.length > 1 ? `{${option.flags.join(",")}}` : (option.flags[0] as string);
      return `        ${option.flags.length > 1 ? names : quote(names)}${quote(`[${described(option.description)}]${value}`)}`;
    });
    const operands = command.named || command.files || command.words.length > 0;
    const operand = operands
      ? `'*:operand:_mcpkit_operands ${command.named ? 1 : 0} ${command.files ? 1 : 0} ${command.words.join(" ")}'`
      : "";
    return `    ${command.name})
      _arguments -s \\
${[...specs, operand ? `        ${operand}` : ""].filter(Boolean).join(" \\\n")} ;;`;
  });
  return `#compdef mcpkit
# mcpkit completion for zsh. Load it in ~/.zshrc, after compinit:  source <(mcpkit completion zsh)
# NAMED FILES WORDS…: the words, the configured server names (NAMED=1), files (FILES=1).
_mcpkit_operands() {
  local named=$1 files=$2
  shift 2
  local -a words
  words=($@)
  [[ $named == 1 ]] && words+=(\${(f)"$(command mcpkit servers --names 2>/dev/null)"})
  (( \${#words} )) && _describe 'operand' words
  [[ $files == 1 ]] && _files
}
_mcpkit() {
  local -a commands
  commands=(
${commands.join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case $words[1] in
${cases.join("\n")}
  esac
}
compdef _mcpkit mcpkit
`;
}

/** fish: `mcpkit completion fish > ~/.config/fish/completions/mcpkit.fish`. */
export function fishScript(model: CompletionModel): string {
  const lines = [
    "# mcpkit completion for fish:  mcpkit completion fish > ~/.config/fish/completions/mcpkit.fish",
    "complete -c mcpkit -f",
  ];
  for (const command of model.commands) {
    lines.push(
      `complete -c mcpkit -n __fish_use_subcommand -a ${command.name} -d ${quote(oneLine(command.description))}`,
    );
    const when = `-n ${quote(`__fish_seen_subcommand_from ${command.name}`)}`;
    for (const option of command.options) {
      const short = option.flags.find((f) => /^-[^-]$/.test(f));
      const long = option.flags.find((f) => f.startsWith("--"));
      const parts = [
        "complete -c mcpkit",
        when,
        short ? `-s ${short.slice(1)}` : "",
        long ? `-l ${long.slice(2)}` : "",
        option.takesValue ? (option.choices.length > 0 ? "-x" : "-r") : "",
        option.choices.length > 0 ? `-a ${quote(option.choices.join(" "))}` : "",
        `-d ${quote(oneLine(option.description))}`,
      ];
      lines.push(parts.filter(Boolean).join(" "));
    }
    if (command.words.length > 0) lines.push(`complete -c mcpkit ${when} -a ${quote(command.words.join(" "))}`);
    if (command.named) lines.push(`complete -c mcpkit ${when} -a '(command mcpkit servers --names 2>/dev/null)'`);
    if (command.files) lines.push(`complete -c mcpkit ${when} -F`);
  }
  return `${lines.join("\n")}\n`;
}
