import type { AwsPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { CompiledScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type {
  AzurePolicyAssignmentResource,
  AzurePolicyDefinitionResource,
  AzurePolicyExemptionResource,
} from "@palisade/policy-engine/compilers/azure/compile-azure";

export type ProviderName = "aws" | "azure";

export type HierarchyNodeType =
  | "AWS_ORGANIZATION_ROOT"
  | "AWS_OU"
  | "AWS_ACCOUNT"
  | "AZURE_MANAGEMENT_GROUP"
  | "AZURE_SUBSCRIPTION"
  | "AZURE_RESOURCE_GROUP";

/** One scope of the organisation or tenant, as the provider reports it. */
export interface HierarchyEntry {
  /** AWS root/OU/account id; Azure ARM scope id (`/providers/Microsoft.Management/...`, `/subscriptions/...`). */
  externalId: string;
  parentExternalId: string | undefined;
  name: string;
  type: HierarchyNodeType;
  /** Console page of the scope; empty for the sandbox, which has no console. */
  link: string;
}

/** One step of a connection test: what was tried, and what to do when it failed. */
export interface ConnectionCheck {
  name: string;
  ok: boolean;
  message: string;
}

/** A record of the provider's audit stream (CloudTrail event, Activity Log entry). */
export interface AuditRecord {
  /** The provider's event id; unique per provider, so ingestion is idempotent. */
  id: string;
  time: Date;
  /** `ec2:RunInstances`-style for AWS; the ARM operation for Azure. */
  action: string;
  principal: string | undefined;
  /** Account id or subscription id. */
  scopeId: string | undefined;
  /** Set when the provider denied the call (`AccessDenied`, `Forbidden`…). */
  errorCode: string | undefined;
  errorMessage: string | undefined;
  /** The record as the provider returned it. */
  raw: unknown;
}

export interface AuditPage {
  /** Oldest first. */
  records: AuditRecord[];
  /** Pass back to read what came after; opaque. */
  cursor: string;
  /**
   * Set when some of the scopes could not be read (the others were): a sentence naming them and
   * what to do. The cursor then stays where it was, so their records are read once they can be.
   */
  unread?: string;
  /** The ids of the scopes whose records were not read (Azure subscriptions), when `unread` is set. */
  unreadScopes?: string[];
  /**
   * The provider's time when it listed the records, by its answers' Date header (the earliest of
   * them): every record listed by then is here. Absent where the answers carry no date.
   */
  listedAt?: Date;
}

/** A policy state of a resource (Azure policy states; empty for AWS, where SCPs have no audit). */
export interface ComplianceRecord {
  resourceId: string;
  policyAssignmentId: string;
  policyDefinitionId: string;
  compliant: boolean;
  time: Date;
  subscriptionId: string | undefined;
}

interface CloudProviderBase {
  readonly provider: ProviderName;
  /** Tries every call Palisade will need and reports each, so a failure names what to fix. */
  verify(): Promise<ConnectionCheck[]>;
  /** The whole hierarchy, parents before their children. */
  listHierarchy(): Promise<HierarchyEntry[]>;
  /**
   * Audit records after `cursor` (from the start of the provider's retention when absent): Azure's
   * Activity Log; AWS's LookupEvents (the management account's own events in one region). An AWS
   * connector with an organisation trail is read through `trail` instead, and every reader reads
   * what that stored.
   */
  readAuditEvents(cursor: string | undefined, options?: { since?: Date }): Promise<AuditPage>;
  /** Policy states of these assignments (of every assignment when absent); empty for AWS. */
  readCompliance(options?: { since?: Date; assignmentIds?: string[] }): Promise<ComplianceRecord[]>;
  close(): void;
}

/** An SCP as it exists in the organisation. */
export interface ScpRef {
  id: string;
  arn: string;
  name: string;
}

/** An SCP attached to a root, OU or account. */
export interface AttachedScp extends ScpRef {
  awsManaged: boolean;
}

/** A log file of an organisation trail after an attempt to read it. */
export interface TrailFileOutcome {
  key: string;
  /** `<account-id>/<region>`. */
  prefix: string;
  /** The delivery day folder, `YYYY/MM/DD`. */
  day: string;
  /**
   * read: every record was taken; failed: read again next time; given_up: failed its bounded
   * attempts, reported and not read again.
   */
  state: "read" | "failed" | "given_up";
  attempts: number;
  records: number;
  /** "CODE: sentence" when not read. */
  error: string | undefined;
}

/** The files of one prefix already recorded, from the ledger the caller keeps. */
export interface TrailFileLedger {
  filesOf(
    prefix: string,
    fromDay: string,
  ): Promise<Map<string, { state: TrailFileOutcome["state"]; attempts: number }>>;
}

/** Records and the files they came from; the caller stores both in one transaction. */
export interface TrailBatch {
  records: AuditRecord[];
  files: TrailFileOutcome[];
  /** On the last batch only: the position to save, and each prefix's floor (older ledger rows are spent). */
  done?: { position: string; floors: Record<string, string> };
}

/** A named problem of an organisation trail, shown on the connector. */
export interface TrailIssue {
  code: string;
  message: string;
}

export interface TrailReadSummary {
  files: number;
  records: number;
  accounts: string[];
  regions: string[];
  /** Files of this read that were not wholly read (retried or given up). */
  unread: TrailFileOutcome[];
  /** Problems of the trail as a whole that did not stop the read (a region it does not cover). */
  issues: TrailIssue[];
}

/** Reads the log files an organisation trail delivered to S3 since the saved position. */
export interface OrganizationTrailReader {
  read(
    position: string | undefined,
    ledger: TrailFileLedger,
    onBatch: (batch: TrailBatch) => Promise<void>,
  ): Promise<TrailReadSummary>;
}

export interface AwsCloudProvider extends CloudProviderBase {
  readonly provider: "aws";
  /** Present when the connector names its organisation trail: the source of its events. */
  readonly trail: OrganizationTrailReader | undefined;
  /**
   * Creates the SCP, or updates it in place when `policyId` (or an SCP of the same name) exists,
   * then makes its attachments exactly `compiled.targets` (none when `compiled.attach` is false).
   * Updating the content is how a waiver is added to or removed from an SCP.
   */
  applyScp(
    compiled: Pick<CompiledScp, "name" | "description" | "content" | "targets" | "attach">,
    policyId?: string,
    type?: AwsPolicyType,
  ): Promise<ScpRef>;
  /** Detaches the SCP from every target and deletes it; absent is success. */
  removeScp(policyId: string): Promise<void>;
  putScp(
    compiled: Pick<CompiledScp, "name" | "description" | "content">,
    policyId?: string,
    type?: AwsPolicyType,
  ): Promise<ScpRef>;
  attachScp(policyId: string, targetId: string): Promise<void>;
  detachScp(policyId: string, targetId: string): Promise<void>;
  /** Roots, OUs and accounts the SCP is attached to. */
  listScpTargets(policyId: string): Promise<string[]>;
  /** An Organizations policy of the type (default SCP) by name. */
  findScpByName(name: string, type?: AwsPolicyType): Promise<ScpRef | undefined>;
  /** The SCPs attached directly to a root, OU or account. */
  listTargetScps(targetId: string, type?: AwsPolicyType): Promise<AttachedScp[]>;
  /** The policy document of an SCP. */
  readScpContent(policyId: string): Promise<string>;
  /** Tags Palisade's SCPs that lack Palisade's tag; how many it tagged. */
  tagManagedScps(): Promise<number>;
  /** The organisation's roots with the policy types each reports and their status. */
  readRootPolicyTypes(): Promise<RootPolicyTypes[]>;
  /** The policies of one type attached directly to a root, OU or account, with Palisade's sizes. */
  readPolicyTypeOnTarget(targetId: string, type: string): Promise<PolicyTypeOnTarget>;
}

/** A root of an organisation and its policy types (`ENABLED`, `PENDING_ENABLE`, `PENDING_DISABLE`). */
export interface RootPolicyTypes {
  rootId: string;
  types: { type: string; status: string }[];
}

/** The policies of one type on one target: how many, and Palisade's with their length in characters. */
export interface PolicyTypeOnTarget {
  attached: number;
  palisade: { id: string; name: string; characters: number }[];
}

export interface AzureCloudProvider extends CloudProviderBase {
  readonly provider: "azure";
  /**
   * Seconds after a PUT of a new or changed assignment, or of a new exemption, before Azure is
   * taken to enforce it (Palisade shows it PROPAGATING until then).
   */
  readonly policyPropagationSeconds: number;
  /**
   * The most seconds an Activity Log event waits between happening and being listed: a read
   * (AuditPage) lists every event that happened this long before its `listedAt`, and maybe not
   * those after.
   */
  readonly activityLogLagSeconds: number;
  /** PUT of the resource at its `id` (idempotent); returns the id ARM answered with. */
  putDefinition(definition: AzurePolicyDefinitionResource): Promise<string>;
  removeDefinition(definitionId: string): Promise<void>;
  putAssignment(assignment: AzurePolicyAssignmentResource): Promise<string>;
  removeAssignment(assignmentId: string): Promise<void>;
  /** Whether the assignment is still in the cloud (reconcile reports one removed behind Palisade's back). */
  assignmentExists(assignmentId: string): Promise<boolean>;
  /** A waiver: an exemption of category Waiver that ARM stops honouring at `expiresOn`. */
  putExemption(exemption: AzurePolicyExemptionResource): Promise<string>;
  removeExemption(exemptionId: string): Promise<void>;
  /** The exemptions at a scope, at scopes above it and within it, with the assignment each exempts from. */
  listExemptions(scope: string): Promise<{ id: string; policyAssignmentId: string }[]>;
}

export type CloudProvider = AwsCloudProvider | AzureCloudProvider;
