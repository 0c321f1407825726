/** One step of SQLite's compiled program for a statement, as EXPLAIN lists it. */
export interface ProgramStep {
  opcode: string;
  p2: number | bigint;
  p4: unknown;
}

/** Opcodes that change a database file, or a virtual table, whatever their operands. */
const WRITING = new Set(["Vacuum", "JournalMode", "Checkpoint", "VBegin", "VUpdate", "VCreate", "VDestroy", "VRename"]);

/**
 * Whether a compiled program changes the database: the reading sqlite3_stmt_readonly makes
 * of it (SQLite's vdbeaux.c: a Transaction that asks for a write lock, a VACUUM, a
 * checkpoint, a journal-mode change), for an engine that does not expose that answer
 * (node:sqlite). Writes to virtual tables count as well. ATTACH and DETACH are not writes
 * here, as for SQLite: they change the connection, and the policy refuses them apart.
 */
export function programWrites(program: readonly ProgramStep[]): boolean {
  return program.some((step) => WRITING.has(step.opcode) || (step.opcode === "Transaction" && Number(step.p2) !== 0));
}
