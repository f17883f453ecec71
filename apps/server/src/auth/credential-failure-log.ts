import type { Logger } from "../logger";

/** Messages Better Auth writes for a wrong password or a garbage API key: anyone can cause them. */
const CREDENTIAL_FAILURES =
  /^(Failed to validate API key|Invalid password|User not found|Password not found|Credential account not found|Username or password not found|Reset Password: User not found)/;

/**
 * Better Auth's log, into Palisade's. Failed credential checks are demoted to debug: the
 * server logs them itself, with the client address and a limit per address.
 */
export function authLog(logger: Logger) {
  return {
    level: "warn" as const,
    log: (level: "debug" | "info" | "warn" | "error", message: string) =>
      logger[CREDENTIAL_FAILURES.test(message) ? "debug" : level]({ component: "auth" }, message),
  };
}

export interface CredentialFailureLog {
  /** A failed credential check from a client address (a garbage API key, an expired session, a wrong password). */
  record(address: string, reason: string): void;
}

/**
 * Logs failed credential checks at info, at most one line per client address per interval:
 * anyone can send garbage credentials, and that must not fill the log. The line after a quiet
 * spell says how many failures it stands for.
 */
export function createCredentialFailureLog(
  logger: Logger,
  options: { intervalMs?: number; maxAddresses?: number; now?: () => number } = {},
): CredentialFailureLog {
  const intervalMs = options.intervalMs ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, { loggedAt: number; suppressed: number }>();
  return {
    record(address, reason) {
      const time = now();
      const entry = seen.get(address);
      if (entry && time - entry.loggedAt < intervalMs) {
        entry.suppressed += 1;
        return;
      }
      const suppressed = entry?.suppressed ?? 0;
      // Re-inserted, so the map's order is the order of last logging and the oldest go first.
      seen.delete(address);
      seen.set(address, { loggedAt: time, suppressed: 0 });
      for (const oldest of seen.keys()) {
        if (seen.size <= maxAddresses) break;
        seen.delete(oldest);
      }
      logger.info(
        { remoteAddress: address, reason, ...(suppressed > 0 ? { alsoSince: suppressed } : {}) },
        "credential check failed",
      );
    },
  };
}
