import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/** Colors for one stream, when it is a terminal (NO_COLOR and FORCE_COLOR honoured). */
export function colorsFor(stream: NodeJS.WriteStream): Colors {
  const env = process.env;
  return pc.createColors(
    !("NO_COLOR" in env) && ("FORCE_COLOR" in env || (stream.isTTY === true && env.TERM !== "dumb")),
  );
}
