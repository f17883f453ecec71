/**
 * What other modules may use of waivers: their lifecycle (the only writer of waivers), their
 * rules and messages, reads of a bundle's waivers, and waivers recorded or ended directly.
 */

export {
  deploymentsOfBundle,
  findLiveBundleByKeyAnyTenant,
  requiresSeparateApprover,
} from "./waiver-context-repository";
export { createWaivers } from "./waiver-create";
export { type DirectWaiver, deleteOpenWaiver, recordApprovedWaiver } from "./waiver-direct";
export {
  approveWaiver,
  cancelWaiversOfBundle,
  markPropagatedWaiversEnforced,
  markWaiversEnforced,
  markWaiversFailed,
  markWaiversPropagating,
  markWaiversWithdrawn,
  rejectWaiver,
  tenantMaxWaiverHours,
  type WaiverFitCheck,
  type WaiverLifecycleDeps,
} from "./waiver-lifecycle";
export { waiverMessage } from "./waiver-message";
export { findWaiver, type WaiverRow, type WaiverView, waiversOfBundle } from "./waiver-repository";
export { deploymentsFor } from "./waiver-request";
export { describeTarget, isEnforceable, parseKey, scopeTypeOf } from "./waiver-rules";
