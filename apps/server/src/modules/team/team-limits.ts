import { Code, ConnectError } from "@connectrpc/connect";
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

export function createTeamLimits(): TeamLimits {
  return {
    invitePerClient: createRateLimiter(perMinutes(60, 10)),
    invitePerEmail: createRateLimiter(perMinutes(5, 60)),
    requesterCodePerClient: createRateLimiter(perMinutes(10, 10)),
    requesterCodePerEmail: createRateLimiter(perMinutes(3, 10)),
    requesterSignInPerClient: createRateLimiter(perMinutes(20, 10)),
    requesterSignInPerEmail: createRateLimiter(perMinutes(10, 10)),
  };
}

/** Takes a token from each limiter; the first that has none refuses the call. */
export function takeOrRefuse(checks: [RateLimiter, string, string][]): void {
  for (const [limiter, key, what] of checks) {
    const verdict = limiter.take(key);
    if (!verdict.allowed) {
      throw new ConnectError(
        `Too many ${what}. Try again in ${verdict.retryAfterSeconds} seconds.`,
        Code.ResourceExhausted,
        { "Retry-After": String(verdict.retryAfterSeconds) },
      );
    }
  }
}
