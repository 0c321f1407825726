import { isReference, type OpenApiDocument, resolvePointer } from "./document.js";

/**
 * How many JSON values a document becomes with its references followed, as the parser's
 * validation sees it (it dereferences first, and walks what it built): circular references
 * stay references, every other one is a copy. A document of nested references a few
 * kilobytes long expands to billions, so `validate` first checks this stays within a bound.
 * Counted with one memo per reference, so the count itself is linear in the document.
 */
export function expandedSize(document: OpenApiDocument, limit: number): number {
  const memo = new Map<string, number>();
  const onStack = new Set<string>();
  const size = (node: unknown): number => {
    if (typeof node !== "object" || node === null) return 1;
    if (isReference(node)) {
      const ref = node.$ref;
      if (!ref.startsWith("#") || onStack.has(ref)) return 1;
      const known = memo.get(ref);
      if (known !== undefined) return known;
      onStack.add(ref);
      let target: unknown;
      try {
        target = resolvePointer(document, ref);
      } catch {
        target = undefined;
      }
      const counted = size(target);
      onStack.delete(ref);
      memo.set(ref, counted);
      return counted;
    }
    let total = 1;
    for (const value of Object.values(node)) {
      total += size(value);
      if (total > limit) return total;
    }
    return total;
  };
  return size(document);
}
