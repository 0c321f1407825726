/**
 * Host names that mean this machine (RFC 6761 §6.3; the IPv6 loopback as a Host header
 * writes it): what a local server answers to by default (DNS-rebinding protection,
 * transports §Security Warning).
 */
export const LOCALHOST_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `url` points at this machine (a loopback redirect, a local server). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOCALHOST_NAMES.includes(new URL(url).hostname.toLowerCase());
  } catch {
    return false;
  }
}
