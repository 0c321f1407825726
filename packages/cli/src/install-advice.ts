/**
 * How to install an optional package where this mcpkit finds it. A global mcpkit finds one
 * installed globally beside it (Node looks in the global node_modules above its own), not one
 * installed in the current folder, which `npm install NAME` alone would do.
 */
export const installAdvice = (name: string): string =>
  `npm install --global ${name} beside a global mcpkit, npm install ${name} in a project`;
