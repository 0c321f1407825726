import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseYaml } from "../yaml.js";
import { readTestFile, type TestFile, TestFileError } from "./test-file.js";

/** The largest test file read: a test file is a page or two, not data. */
export const MAX_TEST_FILE_BYTES = 1024 * 1024;

/** Reads and checks one test file; every problem is a TestFileError naming the file. */
export async function loadTestFile(file: string): Promise<TestFile> {
  const path = resolve(file);
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new TestFileError(`${file} is not a file`);
    if (info.size > MAX_TEST_FILE_BYTES)
      throw new TestFileError(`${file} is ${info.size} bytes; a test file may hold ${MAX_TEST_FILE_BYTES}`);
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof TestFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new TestFileError(code === "ENOENT" ? `${file}: no such file` : `${file} cannot be read (${code ?? error})`);
  }
  return parseTestFile(text, path);
}

/** A test file given as text; `path` says where it belongs (its folder is where commands start). */
export async function parseTestFile(text: string, path: string): Promise<TestFile> {
  let value: unknown;
  try {
    value = await parseYaml(text, path);
  } catch (error) {
    throw new TestFileError((error as Error).message);
  }
  return readTestFile(value, path, dirname(resolve(path)));
}
