import { ErrorCode, McpError } from "mcpkit/jsonrpc";

/**
 * A refusal or failure the person at the client should read: path outside the roots,
 * file too big, statement that would write. Tools report it as an `isError` result (the
 * library turns a thrown Error into one); resources and prompts as a protocol error.
 */
export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspaceError";
  }
}

const FS_MESSAGES: Record<string, string> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  EISDIR: "Is a directory",
  ENOTDIR: "A component of the path is not a directory",
  ELOOP: "Refused: the path is (or became) a symbolic link",
  EEXIST: "Already exists",
  ENOTEMPTY: "Directory not empty",
  EXDEV: "Cannot move across file systems",
  ENAMETOOLONG: "Name too long",
  EMFILE: "Too many open files; try again",
  ENOSPC: "No space left on the device",
  EROFS: "Read-only file system",
};

/** Turns a node:fs error into a WorkspaceError naming the path the client gave. */
export function fsError(error: unknown, shown: string): Error {
  if (error instanceof WorkspaceError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = code ? FS_MESSAGES[code] : undefined;
  if (message) return new WorkspaceError(`${message}: ${shown}`);
  return new WorkspaceError(`Could not access ${shown}: ${error instanceof Error ? error.message : String(error)}`);
}

/** For resources/read and prompts/get: a WorkspaceError becomes -32602 with the message. */
export function asProtocolError(error: unknown, data?: Record<string, unknown>): unknown {
  if (error instanceof WorkspaceError) return new McpError(ErrorCode.InvalidParams, error.message, data);
  return error;
}
