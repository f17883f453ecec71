import { Code, ConnectError } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import { createRateLimiter, type RateLimiter } from "../../rpc/rate-limiter";

/**
 * The limits of the team's e-mail-sending and credential-checking calls, each kept both per
 * client address and per e-mail address: a spray of addresses from one client and a flood of
 * messages to one inbox are both bounded.
 */
export interface TeamLimits {
  /** Invitations created or resent. */
  invitePerClient: RateLimiter;
  invitePerEmail: RateLimiter;
  /** Codes e-mailed from the waiver-request page. */
  requesterCodePerClient: RateLimiter;
  requesterCodePerEmail: RateLimiter;
  /** Codes tried on the waiver-request page. */
  requesterSignInPerClient: RateLimiter;
  requesterSignInPerEmail: RateLimiter;
}

const perMinutes = (count: number, minutes: number) => ({ burst: count, perSecond: count / (minutes * 60) });

export function createTeamLimits(db: Database): TeamLimits {
  return {
    invitePerClient: createRateLimiter(db, perMinutes(60, 10), "team.invitePerClient"),
    invitePerEmail: createRateLimiter(db, perMinutes(5, 60), "team.invitePerEmail"),
    requesterCodePerClient: createRateLimiter(db, perMinutes(10, 10), "team.requesterCodePerClient"),
    requesterCodePerEmail: createRateLimiter(db, perMinutes(3, 10), "team.requesterCodePerEmail"),
    requesterSignInPerClient: createRateLimiter(db, perMinutes(20, 10), "team.requesterSignInPerClient"),
    requesterSignInPerEmail: createRateLimiter(db, perMinutes(10, 10), "team.requesterSignInPerEmail"),
  };
}

/** Takes a token from each limiter; the first that has none refuses the call. */
export async function takeOrRefuse(checks: [RateLimiter, string, string][]): Promise<void> {
  for (const [limiter, key, what] of checks) {
    const verdict = await limiter.take(key);
    if (!verdict.allowed) {
      throw new ConnectError(
        `Too many ${what}. Try again in ${verdict.retryAfterSeconds} seconds.`,
        Code.ResourceExhausted,
        { "Retry-After": String(verdict.retryAfterSeconds) },
      );
    }
  }
}
