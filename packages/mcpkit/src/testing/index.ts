export { createLinkedPair } from "../transports/memory/linked-pair.js";
export { connectInMemory } from "./connect-in-memory.js";
export * from "./contracts/index.js";
export {
  type HistoryItem,
  historyFromLog,
  type LoggedMessage,
  recordingFromLog,
  type TestableMethod,
  type TestFileServer,
  testFileFromHistory,
} from "./convert/from-log.js";
export { asSnapshot, diff, SnapshotError } from "./diff/diff.js";
export { diffJson, formatDiff } from "./diff/format.js";
export { CHANGE_KINDS, type Change, type ChangeKind, type SnapshotDiff } from "./diff/kinds.js";
export type { JsonPath } from "./json/pointer.js";
export * from "./lint/index.js";
export { type Mismatch, matchSubset } from "./match/subset.js";
export { type HttpRecorder, type HttpRecordOptions, startHttpRecorder } from "./record/http-relay.js";
export { REDACTED, type RedactOptions, redact } from "./record/redact.js";
export { recordStdio, type StdioRecordOptions, type StdioRecordResult } from "./record/stdio-relay.js";
export type { ValueDifference } from "./replay/compare.js";
export {
  formatEntry,
  parseRecording,
  type RecordingEntry,
  RecordingError,
  readRecording,
} from "./replay/recording.js";
export { type ReplayOptions, type ReplayResult, replay } from "./replay/replay.js";
export { type Difference, formatReplay } from "./replay/results.js";
export { findTestFiles } from "./runner/find-files.js";
export { loadTestFile, parseTestFile } from "./runner/load.js";
export { formatReport, REPORTERS, type ReporterName, summaryLine, textLine } from "./runner/reporters.js";
export type { TestResult } from "./runner/run-test.js";
export { type FileReport, type RunTestsOptions, runTests, type TestReport } from "./runner/run-tests.js";
export {
  type ClientAnswers,
  EXPECT_KEYS,
  type Expect,
  type ServerEntry,
  type TestCase,
  type TestFile,
  TestFileError,
  type TestRequest,
} from "./runner/test-file.js";
export { formatSnapshot, type Snapshot, type SnapshotOptions, snapshot } from "./snapshot/snapshot.js";
export type { CommandTarget, ServerTarget, UrlTarget } from "./target/server-target.js";
