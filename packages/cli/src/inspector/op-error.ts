/** A request error the page should show as it is: a bad body, or something the page may not do (HTTP 400). */
export class OpError extends Error {}
