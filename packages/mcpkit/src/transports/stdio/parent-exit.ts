/**
 * What must happen as this process exits (each running server's process group killed),
 * through one listener for every transport: one each passes Node's limit of 10 listeners,
 * and an 11th server (a proxy's per-session processes) printed a MaxListenersExceededWarning.
 */
const actions = new Set<() => void>();

const runAll = () => {
  for (const action of actions) action();
};

/** Runs `action` when this process exits; the function returned forgets it. */
export function atParentExit(action: () => void): () => void {
  if (actions.size === 0) process.on("exit", runAll);
  actions.add(action);
  return () => {
    actions.delete(action);
    if (actions.size === 0) process.off("exit", runAll);
  };
}
