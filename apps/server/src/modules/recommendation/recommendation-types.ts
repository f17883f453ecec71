/** The facts the recommendation rules read, and the findings they produce. */

export type Provider = "aws" | "azure";
export type FindingKind =
  | "framework_gap"
  | "observed_activity"
  | "drift"
  | "often_waived"
  | "unguarded_scope";
export type Mode = "ALERT" | "PREVENT";

/** A scope of a connected hierarchy. */
export interface ScopeNode {
  externalId: string;
  parentExternalId: string | null;
  name: string;
  /** HierarchyNodeType: AWS_ROOT, AWS_OU, AWS_ACCOUNT, AZURE_MANAGEMENT_GROUP, AZURE_SUBSCRIPTION… */
  type: string;
  provider: Provider;
}

export interface PolicyInfo {
  slug: string;
  provider: Provider;
  name: string;
}

/** A live deployment of a policy on a scope. */
export interface LiveDeployment {
  policySlug: string;
  scopeExternalId: string;
  mode: Mode;
}

/** One call of the audit stream, as the rules need it. */
export interface ActivityRecord {
  provider: Provider;
  /** `s3:PutBucketAcl`; the ARM operation (`Microsoft.Storage/storageAccounts/write`) on Azure. */
  action: string;
  /** AWS account id or Azure subscription id. */
  scopeId: string;
  principal: string;
  resource: string;
  /**
   * What the request set: AWS, the IAM condition keys its stored request tells
   * (`s3:x-amz-acl`, `ec2:MetadataHttpTokens`); Azure, nothing.
   */
  params: Record<string, unknown>;
  /** The newest time it was made. */
  time: Date;
  /** How many times it was made in the window (1 when absent). */
  count?: number;
}

/** Resources drifting from a policy deployed on a scope. */
export interface DriftFact {
  policySlug: string;
  scopeExternalId: string;
  mode: Mode;
  resources: number;
}

/** Waivers granted or requested for a policy on a scope over the waiver window. */
export interface WaiverFact {
  policySlug: string;
  scopeExternalId: string;
  count: number;
}

export interface FrameworkFact {
  slug: string;
  name: string;
  clauses: { id: string; title: string; definitionSlugs: string[] }[];
}

export interface RuleInput {
  nodes: ScopeNode[];
  policies: ReadonlyMap<string, PolicyInfo>;
  deployments: LiveDeployment[];
  activity: ActivityRecord[];
  drift: DriftFact[];
  waivers: WaiverFact[];
  frameworks: FrameworkFact[];
}

export interface FindingScope {
  externalId: string;
  name: string;
  type: string;
}

export interface Finding {
  /** Stable across runs: the same finding keeps its key, so it is updated and never repeated. */
  key: string;
  kind: FindingKind;
  title: string;
  /** Markdown. */
  description: string;
  policySlugs: string[];
  provider: Provider;
  scopes: FindingScope[];
  mode: Mode;
  /** 0 to 100. */
  score: number;
  affectedResourcesCount: number;
}

export const ACTIVITY_WINDOW_DAYS = 30;
export const WAIVER_WINDOW_DAYS = 90;
/** Waivers of one policy on one scope within the window from which it counts as often waived. */
export const OFTEN_WAIVED_THRESHOLD = 3;
export const MAX_SCOPES = 20;
export const TITLE_MAX = 120;
