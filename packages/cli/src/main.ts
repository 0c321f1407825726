import { VERSION } from "./version.js";

// -V as well as -v: earlier releases printed the version on -V only.
const flag = process.argv[2];
if (flag === "--version" || flag === "-v" || flag === "-V") {
  // Answered before anything else loads, commander included (it alone costs more than the rest):
  // scripts ask for the version more than anything.
  process.stdout.write(`${VERSION} (Node.js ${process.version})\n`);
} else {
  // Each command is loaded only when it runs (program.ts).
  await (await import("./program.js")).run(process.argv);
}
