/**
 * Azure enforces a new or changed policy assignment, and honours a new exemption, minutes after
 * it is written; the server says until when (`propagation_ends_at`). These are the words for it.
 */

/** Whole minutes until `end`, at least one: what "in about N minutes" says. */
export function minutesUntil(end: Date, now: number = Date.now()): number {
  return Math.max(1, Math.ceil((end.getTime() - now) / 60_000));
}

export function aboutMinutes(end: Date, now: number = Date.now()): string {
  const minutes = minutesUntil(end, now);
  return `about ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/** Why a deployment shows PROPAGATING. */
export function deploymentPropagationText(end: Date | undefined, now: number = Date.now()): string {
  const within = end ? aboutMinutes(end, now) : "a few minutes";
  return `Written to Azure, which applies new assignments within ${within}; until then Azure does not enforce it.`;
}

/** Why a waiver shows PROPAGATING. */
export function waiverPropagationText(end: Date | undefined, now: number = Date.now()): string {
  const within = end ? aboutMinutes(end, now) : "a few minutes";
  return `Approved and written to Azure, which honours a new exemption within ${within}; until then the action stays blocked.`;
}
