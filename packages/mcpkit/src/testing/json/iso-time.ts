/**
 * An ISO 8601 date and time, as JSON carries timestamps (RFC 3339: `2026-07-28T12:00:00Z`,
 * with fractions and offsets). A date alone is data, not a clock reading: it is not one.
 */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export function isIsoTimestamp(value: unknown): value is string {
  return typeof value === "string" && value.length <= 40 && ISO_DATE_TIME.test(value);
}
