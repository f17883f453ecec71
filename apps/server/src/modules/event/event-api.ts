/**
 * What other modules may use of the event store: classifying requests, recorded events and what
 * was fetched for a deployment.
 */
export { decide, resourceOf } from "./classify-aws";
export { armResourceParts } from "./classify-azure";
export { type ClassifyContext, type DeploymentInfo, isAtOrBelowArm, lower } from "./classify-context";
export { rowsOf } from "./event-repository";
export { listClassifiedDeployments } from "./fetch-repository";
export { loadClassifyContext } from "./load-classify-context";
export { recordMissingDeployment } from "./record-event";
export { loadStoredRequests, REQUEST_SUMMARY_DAYS, type StoredRequest } from "./request-summary";
