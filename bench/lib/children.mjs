// Every child process the benchmark starts, so the runner can end them all on the way
// out, failures and Ctrl-C included.
export const children = new Set();

export function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

export function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
