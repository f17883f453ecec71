import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
export interface AwsOu {
  id: string;
  name: string;
  parentId: string;
}

export interface AwsAccount {
  id: string;
  name: string;
  email: string;
  parentId: string;
  joinedMethod: "CREATED" | "INVITED";
  joinedAt: string;
  /** The account-level S3 Block Public Access settings (S3 Control), once set. */
  publicAccessBlock?: Record<string, boolean>;
}

export interface AwsScp {
  id: string;
  name: string;
  description: string;
  content: string;
  awsManaged: boolean;
  /** Absent for the service control policies of states stored before RCPs existed. */
  type?: "SERVICE_CONTROL_POLICY" | "RESOURCE_CONTROL_POLICY" | "DECLARATIVE_POLICY_EC2";
}

export interface AwsAttachment {
  policyId: string;
  targetId: string;
}

export interface AwsPrincipal {
  arn: string;
  accountId: string;
  kind: "user" | "role";
  name: string;
  human: boolean;
  /** Trust policy as stored by IAM; only roles have one. */
  trustPolicy?: string;
}

export interface AwsResource {
  arn: string;
  type: string;
  accountId: string;
  region: string;
  name: string;
  properties: Record<string, unknown>;
}

export interface AwsAccessKey {
  accessKeyId: string;
  secretAccessKey: string;
  principalArn: string;
  sessionToken?: string;
  expiresAt?: string;
}

/** A CloudTrail record (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html). */
export interface CloudTrailRecord {
  eventVersion: string;
  userIdentity: Record<string, unknown>;
  eventTime: string;
  eventSource: string;
  eventName: string;
  awsRegion: string;
  sourceIPAddress: string;
  userAgent: string;
  errorCode?: string;
  errorMessage?: string;
  requestParameters: Record<string, unknown> | null;
  responseElements: Record<string, unknown> | null;
  requestID?: string;
  eventID: string;
  readOnly: boolean;
  /** Absent from most records: only some APIs name the resources they touch. */
  resources?: { ARN: string; accountId: string; type: string }[];
  eventType: string;
  managementEvent: boolean;
  recipientAccountId: string;
  eventCategory?: string;
}

export interface S3Bucket {
  name: string;
  accountId: string;
  region: string;
  createdAt: string;
  /** Principals that may list and read its objects; a role ARN stands for every session of the role. */
  readers: string[];
  /** Principals that may put objects into it. */
  writers: string[];
}

/** The organisation trail: every account's management events, every region, delivered to one bucket. */
export interface OrganizationTrail {
  name: string;
  arn: string;
  bucket: string;
  /** The trail's S3 key prefix; empty when the trail names none. */
  keyPrefix: string;
  logArchiveAccountId: string;
  readerRoleArn: string;
  /** Average seconds from a call to the delivery of the log file holding its record. */
  deliveryDelaySeconds: number;
}

/** Records of one account and region gathered for one log file, delivered at `dueAt`. */
export interface TrailBatch {
  accountId: string;
  region: string;
  closesAt: string;
  dueAt: string;
  records: CloudTrailRecord[];
}

export interface AwsState {
  organizationId: string;
  managementAccountId: string;
  managementAccountEmail: string;
  rootId: string;
  ous: AwsOu[];
  accounts: AwsAccount[];
  policies: AwsScp[];
  attachments: AwsAttachment[];
  principals: AwsPrincipal[];
  resources: AwsResource[];
  accessKeys: AwsAccessKey[];
  connector: {
    userArn: string;
    roleArn: string;
    externalId: string;
    accessKeyId: string;
    secretAccessKey: string;
  };
  trail: CloudTrailRecord[];
  s3Buckets: S3Bucket[];
  organizationTrail: OrganizationTrail;
  /** Records recorded but not yet delivered to the organisation trail's bucket. */
  trailBatches: TrailBatch[];
  /** Tags of the organisation's resources (policies, root, OUs, accounts) by resource id. */
  tags?: Record<string, Record<string, string>>;
  /** Policy types enabled on the root besides SCPs (EnablePolicyType), e.g. RESOURCE_CONTROL_POLICY. */
  enabledPolicyTypes?: string[];
  /** The organisation's resource-based delegation policy (PutResourcePolicy), if any. */
  resourcePolicy?: { id: string; content: string };
  /** EC2's account-level settings each account set itself, keyed `account/region`. */
  ec2Settings?: Record<string, Ec2AccountSettings>;
}

/** EC2 account-level settings as the account sets them (a declarative policy, when one sets them, wins). */
export interface Ec2AccountSettings {
  serialConsoleAccessEnabled?: boolean;
  imageBlockPublicAccessState?: "block-new-sharing" | "unblocked";
  snapshotBlockPublicAccessState?: "block-all-sharing" | "block-new-sharing" | "unblocked";
  vpcInternetGatewayBlockMode?: "off" | "block-bidirectional" | "block-ingress";
  vpcBlockPublicAccessUpdated?: string;
}

export interface AzureManagementGroup {
  name: string;
  displayName: string;
  parentName: string | null;
}

export interface AzureSubscription {
  subscriptionId: string;
  displayName: string;
  managementGroupName: string;
  /** Disabled: read-only, every write under it is refused. Absent means Enabled. */
  state?: SubscriptionState;
}

export type SubscriptionState = "Enabled" | "Disabled";

export interface AzureResourceGroup {
  subscriptionId: string;
  name: string;
  location: string;
}

export interface AzurePrincipal {
  objectId: string;
  displayName: string;
  type: "User" | "ServicePrincipal";
  upn?: string;
  clientId?: string;
  clientSecret?: string;
  /** Set through /sandbox/control/client-secret: the token endpoint refuses the secret. */
  clientSecretExpired?: boolean;
}

/** ARM objects are kept exactly as ARM returns them so GET answers what PUT stored. */
export type ArmObject = Record<string, unknown> & { id: string; name: string; type: string };

export interface ActivityLogEvent {
  authorization?: { action: string; scope: string };
  eventDataId: string;
  correlationId: string;
  operationId: string;
  operationName: { value: string; localizedValue: string };
  category: { value: string; localizedValue: string };
  level: string;
  resourceId: string;
  resourceGroupName?: string;
  resourceProviderName: { value: string; localizedValue: string };
  resourceType: { value: string; localizedValue: string };
  status: { value: string; localizedValue: string };
  subStatus: { value: string; localizedValue: string };
  caller: string;
  claims: Record<string, string>;
  eventTimestamp: string;
  submissionTimestamp: string;
  subscriptionId: string;
  tenantId: string;
  properties: Record<string, string>;
  httpRequest?: { clientRequestId: string; clientIpAddress: string; method: string };
}

export interface PolicyStateRecord {
  timestamp: string;
  resourceId: string;
  policyAssignmentId: string;
  policyDefinitionId: string;
  effectiveParameters: string;
  isCompliant: boolean;
  complianceState: "Compliant" | "NonCompliant" | "Exempt";
  subscriptionId: string;
  resourceType: string;
  resourceLocation: string;
  resourceGroup: string;
  policyAssignmentName: string;
  policyAssignmentScope: string;
  policyDefinitionName: string;
  policyDefinitionAction: string;
  managementGroupIds: string;
  policyDefinitionReferenceId: string;
}

export interface AzureState {
  tenantId: string;
  managementGroups: AzureManagementGroup[];
  subscriptions: AzureSubscription[];
  resourceGroups: AzureResourceGroup[];
  resources: AzureResource[];
  principals: AzurePrincipal[];
  connector: { clientId: string; clientSecret: string; objectId: string };
  policyDefinitions: ArmObject[];
  policyAssignments: ArmObject[];
  policyExemptions: ArmObject[];
  activityLog: ActivityLogEvent[];
  policyStates: PolicyStateRecord[];
  tokenSigningKey: string;
  /**
   * Versions of assignments and exemptions waiting to take effect or in effect, by lower-case id
   * (see enforce/propagation.ts). Absent in state files written before the sandbox modelled it.
   */
  policyVersions?: Record<"policyAssignments" | "policyExemptions", Record<string, PolicyVersion[]>>;
}

/** An assignment or exemption as written by one PUT, enforced from `at`. */
export interface PolicyVersion {
  at: string;
  object: ArmObject;
  /** Its time has come and the sandbox has acted on it (the compliance scan of an assignment). */
  applied: boolean;
}

export interface SandboxState {
  version: 1;
  seed: number;
  /** Milliseconds the simulated clock runs ahead of the host clock. */
  clockOffsetMs: number;
  aws: AwsState;
  azure: AzureState;
}
