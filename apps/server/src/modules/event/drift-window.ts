/**
 * How far apart a request and a non-compliant state of the same resource may be and still be one
 * thing: the prevention or alert already recorded, not the resource drifting.
 *
 * AWS evaluates SCPs on the request itself: the two are seconds apart. Azure reports the
 * compliance of a created or updated resource "around 15 minutes later"
 * (https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers);
 * "around" can be more, so a state up to twice that after the request is paired with it.
 */
const CLOCK_SKEW_MS = 5_000;
const AZURE_COMPLIANCE_REPORTED_WITHIN_MS = 30 * 60_000;

export interface DriftWindow {
  /** How long before the request its state may be stamped (clock skew). */
  beforeMs: number;
  /** How long after the request its state may be stamped. */
  afterMs: number;
}

export function driftWindow(provider: "aws" | "azure"): DriftWindow {
  return provider === "azure"
    ? { beforeMs: CLOCK_SKEW_MS, afterMs: AZURE_COMPLIANCE_REPORTED_WITHIN_MS }
    : { beforeMs: CLOCK_SKEW_MS, afterMs: CLOCK_SKEW_MS };
}

/** Whether a state stamped `stateAt` belongs to a request made at `requestAt`. */
export function withinDriftWindow(window: DriftWindow, requestAt: number, stateAt: number): boolean {
  return stateAt - requestAt <= window.afterMs && requestAt - stateAt <= window.beforeMs;
}
