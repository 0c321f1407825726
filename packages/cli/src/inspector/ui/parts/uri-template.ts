/**
 * RFC 6570 URI templates with string values, for the resource templates form: the
 * variables of a template, and its expansion (every operator; prefixes; explode is moot
 * for strings). Unset variables are left out, as §3.2.1 says.
 */
const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean }> = {
  "": { first: "", sep: ",", named: false, reserved: false },
  "+": { first: "", sep: ",", named: false, reserved: true },
  "#": { first: "#", sep: ",", named: false, reserved: true },
  ".": { first: ".", sep: ".", named: false, reserved: false },
  "/": { first: "/", sep: "/", named: false, reserved: false },
  ";": { first: ";", sep: ";", named: true, reserved: false },
  "?": { first: "?", sep: "&", named: true, reserved: false },
  "&": { first: "&", sep: "&", named: true, reserved: false },
};

const specs = (list: string) =>
  list.split(",").map((spec) => {
    const [, name = spec, prefix] = /^([^:*]+)(?::(\d+))?\*?$/.exec(spec.trim()) ?? [];
    return { name, prefix: prefix === undefined ? undefined : Number(prefix) };
  });

export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, , list] of template.matchAll(EXPRESSION))
    for (const { name } of specs(list as string)) if (!names.includes(name)) names.push(name);
  return names;
}

export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_all, op: string, list: string) => {
    const rule = OPERATORS[op] ?? (OPERATORS[""] as (typeof OPERATORS)[string]);
    const encode = (s: string) =>
      rule.reserved ? encodeURI(s).replace(/%25([0-9A-F]{2})/gi, "%$1") : encodeURIComponent(s);
    const parts = specs(list)
      .filter(({ name }) => values[name] !== undefined && values[name] !== "")
      .map(({ name, prefix }) => {
        const value = encode((values[name] as string).slice(0, prefix));
        return rule.named ? `${name}=${value}` : value;
      });
    return parts.length ? rule.first + parts.join(rule.sep) : "";
  });
}
