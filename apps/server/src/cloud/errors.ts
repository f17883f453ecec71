/** Reading cloud SDK errors the same way for AWS and Azure. */

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
]);

interface ErrorFields {
  name?: unknown;
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function fields(error: unknown): ErrorFields {
  return error && typeof error === "object" ? (error as ErrorFields) : {};
}

/** The provider's error code: AWS exception name, ARM `error.code`, or a Node network code. */
export function errorCode(error: unknown): string {
  const e = fields(error);
  if (typeof e.code === "string" && e.code) return e.code;
  if (typeof e.name === "string" && e.name && e.name !== "Error" && e.name !== "RestError") return e.name;
  return "";
}

export function errorStatus(error: unknown): number | undefined {
  const e = fields(error);
  return typeof e.statusCode === "number" ? e.statusCode : e.$metadata?.httpStatusCode;
}

export function errorMessage(error: unknown): string {
  const e = fields(error);
  return typeof e.message === "string" && e.message ? e.message : String(error);
}

/** True when the endpoint could not be reached at all (refused, unknown host, timed out). */
export function isUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 4) return false;
  const e = fields(error);
  if (typeof e.code === "string" && NETWORK_CODES.has(e.code)) return true;
  if (e.name === "TimeoutError") return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isUnreachable(inner, depth + 1))) return true;
  if (e.cause !== undefined) return isUnreachable(e.cause, depth + 1);
  // core-rest-pipeline and @azure/identity wrap network failures in their own errors.
  return (
    typeof e.message === "string" &&
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|network_error/.test(e.message)
  );
}

export function isNotFound(error: unknown, codes: readonly string[]): boolean {
  return codes.includes(errorCode(error)) || errorStatus(error) === 404;
}

/**
 * The AADSTS number of an Entra ID sign-in refusal (e.g. 7000222, an expired client secret), read
 * from the error description the token endpoint answers
 * (https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes).
 */
export function entraErrorNumber(error: unknown): string | undefined {
  const e = fields(error) as ErrorFields & { errorResponse?: { errorDescription?: unknown } };
  const text = [e.message, e.errorResponse?.errorDescription].filter((t) => typeof t === "string").join(" ");
  return /\bAADSTS(\d+)/.exec(text)?.[1];
}
