import type { SandboxRequest, SandboxResponse } from "../http/types";
import { armError } from "./arm-http";

/**
 * ARM's throttling as `POST /sandbox/control/throttle` with `service: "arm"` injects it: a 429
 * `TooManyRequests` with `Retry-After` (seconds), as Azure Resource Manager answers
 * (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/request-limits-and-throttling).
 * `count` bounds the refusals; `pathContains` narrows them to some requests; `firstAttemptOnly`
 * refuses each distinct request (method, path and query, so each page of a list) once and serves
 * its retry, which puts a 429 on every page of every list.
 */
export interface ArmThrottleSettings {
  count: number;
  retryAfterSeconds: number;
  pathContains?: string;
  firstAttemptOnly: boolean;
}

export interface ArmThrottle {
  set(settings: ArmThrottleSettings): void;
  /** The 429 this request gets, if any. */
  take(req: SandboxRequest): SandboxResponse | undefined;
  /** Refusals left. */
  readonly left: number;
  /** 429s answered since the sandbox started. */
  readonly answered: number;
}

export function createArmThrottle(): ArmThrottle {
  let settings: ArmThrottleSettings = { count: 0, retryAfterSeconds: 1, firstAttemptOnly: false };
  const seen = new Set<string>();
  let answered = 0;
  return {
    get left() {
      return settings.count;
    },
    get answered() {
      return answered;
    },
    set(next) {
      settings = { ...next, pathContains: next.pathContains?.toLowerCase() };
      seen.clear();
    },
    take(req) {
      if (settings.count <= 0) return undefined;
      if (settings.pathContains && !req.path.toLowerCase().includes(settings.pathContains)) return undefined;
      if (settings.firstAttemptOnly) {
        const key = `${req.method.toUpperCase()} ${req.path.toLowerCase()}?${req.query}`;
        if (seen.has(key)) return undefined;
        seen.add(key);
      }
      settings.count -= 1;
      answered += 1;
      const busy = armError(
        429,
        "TooManyRequests",
        `The request is being throttled as the limit has been reached for operation type. Please retry after ${settings.retryAfterSeconds} second(s).`,
      );
      return { ...busy, headers: { ...busy.headers, "retry-after": String(settings.retryAfterSeconds) } };
    },
  };
}
