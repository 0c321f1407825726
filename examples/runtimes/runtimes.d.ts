// The few parts of Bun's and Deno's globals that these examples use (their complete
// typings are not npm dependencies of this repository).
declare const Bun: {
  serve(options: {
    hostname?: string;
    port?: number;
    idleTimeout?: number;
    fetch(request: Request): Response | Promise<Response>;
  }): { readonly url: URL; stop(): Promise<void> };
};

declare const Deno: {
  serve(
    options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly finished: Promise<void>; shutdown(): Promise<void> };
  env: { get(name: string): string | undefined };
};
