/**
 * What the proxy tells `onError` that is an event of its work, not a fault in any code: an
 * upstream connection stopped to make room, an upstream that exited. Its message says it
 * all, so it carries no stack: the default `onError` prints an error's stack, here mcpkit's
 * own frames, a screenful for each of the many such events a busy proxy has.
 */
export function proxyEvent(message: string): Error {
  const event = new Error(message);
  event.stack = message;
  return event;
}
