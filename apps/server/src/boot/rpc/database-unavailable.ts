import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/** Node socket errors and PostgreSQL's connection classes (08) and shutdown codes (57P0x). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const LOST_CONNECTION =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|is not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)/i;

/** Whether the error (or one it wraps) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ConnectError) return false;
    const code = String((e as { code?: unknown }).code ?? "");
    if (CONNECTION_CODES.has(code) || /^08...$/.test(code) || /^57P0[123]$/.test(code) || code === "53300")
      return true;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
    if (LOST_CONNECTION.test(String((e as { message?: unknown }).message ?? ""))) return true;
  }
  return false;
}

/**
 * A call that fails because the database is down (restarting, unreachable, out of connections)
 * answers `unavailable`, which clients retry, not `internal`; the pool reconnects by itself.
 */
export function createDatabaseUnavailableInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        throw new ConnectError("The database is unavailable. Try again in a moment.", Code.Unavailable);
      }
      throw error;
    }
  };
}
