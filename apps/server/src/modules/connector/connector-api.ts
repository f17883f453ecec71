/** What other modules may use of connectors: their connections, hierarchy and what a fetch read. */
export {
  type ConnectorRow,
  connectorProvider,
  findConnector,
  findHierarchyNodes,
  type HierarchyNodeRow,
  listHierarchyNodes,
  READ_NAMES,
  type ReadFailures,
  saveEventCursor,
  saveEventsError,
  saveReadFailures,
  saveSignInFailure,
} from "./connector-repository";
export {
  type ConnectorRuntime,
  describeCloudFailure,
  SandboxNotRunningError,
  SIGN_IN_FAILURES,
  signInFailure,
} from "./connector-runtime";
export { awsManagementAccountOf, policyQuotasFor } from "./connectors";
export { policyLimitsOf } from "./policy-quotas";
export type { SecretBox } from "./secret-box";
