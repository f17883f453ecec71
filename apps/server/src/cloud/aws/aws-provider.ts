import { CloudTrailClient, type Event, LookupEventsCommand } from "@aws-sdk/client-cloudtrail";
import {
  AttachPolicyCommand,
  CreatePolicyCommand,
  DeletePolicyCommand,
  DescribeOrganizationCommand,
  DetachPolicyCommand,
  ListAccountsForParentCommand,
  ListOrganizationalUnitsForParentCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  ListTargetsForPolicyCommand,
  OrganizationsClient,
  type PolicySummary,
  UpdatePolicyCommand,
} from "@aws-sdk/client-organizations";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type {
  AuditPage,
  AuditRecord,
  AwsCloudProvider,
  ConnectionCheck,
  HierarchyEntry,
  ScpRef,
} from "../cloud-provider";
import { errorCode, errorMessage, isNotFound, isUnreachable } from "../errors";
import { createLimiter, DEFAULT_RETRY, type RetryOptions, withRetry } from "../retry";

interface AwsCredentialIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** What Palisade needs to reach one AWS organisation. */
export interface AwsConnection {
  /** Sandbox or VPC endpoint; the public AWS endpoints when absent. */
  endpoint?: string;
  region: string;
  managementAccountId: string;
  roleArn: string;
  externalId: string;
  /**
   * Keys AssumeRole is called with. Absent for a real organisation: the server's own AWS identity
   * (environment, instance profile…) from the SDK's default chain.
   */
  baseCredentials?: { accessKeyId: string; secretAccessKey: string };
  /** Console links for the hierarchy; the sandbox has no console. */
  consoleLinks: boolean;
  /** Calls in flight at once against this organisation. */
  concurrency?: number;
  retry?: RetryOptions;
}

/** IAM actions the connector role needs, shown in the setup instructions. */
export const AWS_REQUIRED_ACTIONS = [
  "organizations:DescribeOrganization",
  "organizations:ListRoots",
  "organizations:ListOrganizationalUnitsForParent",
  "organizations:ListAccountsForParent",
  "organizations:ListPolicies",
  "organizations:DescribePolicy",
  "organizations:ListTargetsForPolicy",
  "organizations:CreatePolicy",
  "organizations:UpdatePolicy",
  "organizations:DeletePolicy",
  "organizations:AttachPolicy",
  "organizations:DetachPolicy",
  "cloudtrail:LookupEvents",
] as const;

const SCP = "SERVICE_CONTROL_POLICY";
const SESSION_SECONDS = 3600;
/** Credentials are renewed this long before they expire. */
const RENEW_MS = 5 * 60_000;
const CONSOLE = "https://console.aws.amazon.com/organizations/v2/home";

export function createAwsProvider(connection: AwsConnection): AwsCloudProvider {
  const limiter = createLimiter(connection.concurrency ?? 4);
  const retry = connection.retry ?? DEFAULT_RETRY;
  // The SDK's own retries are off: throttling is retried by `withRetry`, with the backoff and
  // bound Palisade chose, and other errors surface at once.
  const common = {
    region: connection.region,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
  };
  const sts = new STSClient({
    ...common,
    ...(connection.baseCredentials ? { credentials: connection.baseCredentials } : {}),
  });

  let session: AwsCredentialIdentity | undefined;
  let renewing: Promise<AwsCredentialIdentity> | undefined;
  async function assumeRole(): Promise<AwsCredentialIdentity> {
    const out = await withRetry(
      () =>
        sts.send(
          new AssumeRoleCommand({
            RoleArn: connection.roleArn,
            RoleSessionName: "palisade",
            ExternalId: connection.externalId,
            DurationSeconds: SESSION_SECONDS,
          }),
        ),
      retry,
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error("AssumeRole returned no credentials");
    return {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
      expiration: c.Expiration,
    };
  }
  // One AssumeRole at a time; it runs outside the limiter because the calls waiting for it hold
  // the limiter's slots.
  const credentials = async (): Promise<AwsCredentialIdentity> => {
    const expiresAt = session?.expiration?.getTime() ?? 0;
    if (session && expiresAt - Date.now() > RENEW_MS) return session;
    renewing ??= assumeRole().finally(() => {
      renewing = undefined;
    });
    session = await renewing;
    return session;
  };

  const organizations = new OrganizationsClient({ ...common, credentials });
  const cloudtrail = new CloudTrailClient({ ...common, credentials });

  const call = <T>(send: () => Promise<T>) => limiter.run(() => withRetry(send, retry));

  async function allPages<T>(
    fetchPage: (token: string | undefined) => Promise<{ items: T[]; next: string | undefined }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let token: string | undefined;
    do {
      const page = await call(() => fetchPage(token));
      out.push(...page.items);
      token = page.next;
    } while (token);
    return out;
  }

  const link = (path: string) => (connection.consoleLinks ? `${CONSOLE}/${path}` : "");

  async function listHierarchy(): Promise<HierarchyEntry[]> {
    const roots = await allPages(async (NextToken) => {
      const out = await organizations.send(new ListRootsCommand({ NextToken }));
      return { items: out.Roots ?? [], next: out.NextToken };
    });
    const entries: HierarchyEntry[] = roots.map((root) => ({
      externalId: root.Id ?? "",
      parentExternalId: undefined,
      name: root.Name ?? "Root",
      type: "AWS_ORGANIZATION_ROOT",
      link: link("root"),
    }));
    // Breadth first, each level's parents read in parallel (bounded by the limiter).
    let level = entries.map((e) => e.externalId);
    while (level.length > 0) {
      const children = await Promise.all(
        level.map(async (parentId) => {
          const [units, accounts] = await Promise.all([
            allPages(async (NextToken) => {
              const out = await organizations.send(
                new ListOrganizationalUnitsForParentCommand({ ParentId: parentId, NextToken }),
              );
              return { items: out.OrganizationalUnits ?? [], next: out.NextToken };
            }),
            allPages(async (NextToken) => {
              const out = await organizations.send(
                new ListAccountsForParentCommand({ ParentId: parentId, NextToken }),
              );
              return { items: out.Accounts ?? [], next: out.NextToken };
            }),
          ]);
          const found: HierarchyEntry[] = [
            ...units.map(
              (ou): HierarchyEntry => ({
                externalId: ou.Id ?? "",
                parentExternalId: parentId,
                name: ou.Name ?? ou.Id ?? "",
                type: "AWS_OU",
                link: link(`organizational-units/${ou.Id}`),
              }),
            ),
            ...accounts.map(
              (account): HierarchyEntry => ({
                externalId: account.Id ?? "",
                parentExternalId: parentId,
                name: account.Name ?? account.Id ?? "",
                type: "AWS_ACCOUNT",
                link: link(`accounts/${account.Id}`),
              }),
            ),
          ];
          return found;
        }),
      );
      const flat = children.flat();
      entries.push(...flat);
      level = flat.filter((e) => e.type === "AWS_OU").map((e) => e.externalId);
    }
    return entries;
  }

  function scpRef(summary: PolicySummary | undefined): ScpRef {
    return { id: summary?.Id ?? "", arn: summary?.Arn ?? "", name: summary?.Name ?? "" };
  }

  async function findScpByName(name: string): Promise<ScpRef | undefined> {
    const policies = await allPages(async (NextToken) => {
      const out = await organizations.send(new ListPoliciesCommand({ Filter: SCP, NextToken }));
      return { items: out.Policies ?? [], next: out.NextToken };
    });
    const found = policies.find((p) => p.Name === name);
    return found ? scpRef(found) : undefined;
  }

  async function putScp(
    compiled: { name: string; description: string; content: string },
    policyId?: string,
  ): Promise<ScpRef> {
    const id = policyId ?? (await findScpByName(compiled.name))?.id;
    if (id) {
      try {
        const out = await call(() =>
          organizations.send(
            new UpdatePolicyCommand({
              PolicyId: id,
              Name: compiled.name,
              Description: compiled.description,
              Content: compiled.content,
            }),
          ),
        );
        return scpRef(out.Policy?.PolicySummary);
      } catch (error) {
        // Deleted out of band: create it again below.
        if (!isNotFound(error, ["PolicyNotFoundException"])) throw error;
      }
    }
    try {
      const out = await call(() =>
        organizations.send(
          new CreatePolicyCommand({
            Name: compiled.name,
            Description: compiled.description,
            Content: compiled.content,
            Type: SCP,
          }),
        ),
      );
      return scpRef(out.Policy?.PolicySummary);
    } catch (error) {
      // Created meanwhile by another run of the same deployment.
      if (errorCode(error) !== "DuplicatePolicyException") throw error;
      const existing = await findScpByName(compiled.name);
      if (!existing) throw error;
      return putScp(compiled, existing.id);
    }
  }

  async function listScpTargets(policyId: string): Promise<string[]> {
    const targets = await allPages(async (NextToken) => {
      const out = await organizations.send(
        new ListTargetsForPolicyCommand({ PolicyId: policyId, NextToken }),
      );
      return { items: out.Targets ?? [], next: out.NextToken };
    });
    return targets.map((t) => t.TargetId ?? "").filter(Boolean);
  }

  async function attachScp(policyId: string, targetId: string): Promise<void> {
    try {
      await call(() =>
        organizations.send(new AttachPolicyCommand({ PolicyId: policyId, TargetId: targetId })),
      );
    } catch (error) {
      if (errorCode(error) !== "DuplicatePolicyAttachmentException") throw error;
    }
  }

  async function detachScp(policyId: string, targetId: string): Promise<void> {
    try {
      await call(() =>
        organizations.send(new DetachPolicyCommand({ PolicyId: policyId, TargetId: targetId })),
      );
    } catch (error) {
      if (errorCode(error) !== "PolicyNotAttachedException") throw error;
    }
  }

  async function removeScp(policyId: string): Promise<void> {
    try {
      for (const target of await listScpTargets(policyId)) await detachScp(policyId, target);
      await call(() => organizations.send(new DeletePolicyCommand({ PolicyId: policyId })));
    } catch (error) {
      if (!isNotFound(error, ["PolicyNotFoundException"])) throw error;
    }
  }

  async function readAuditEvents(
    cursorText: string | undefined,
    options?: { since?: Date },
  ): Promise<AuditPage> {
    const cursor: AuditCursor = decodeCursor(cursorText) ?? {
      time: (options?.since ?? new Date(Date.now() - 90 * 86_400_000)).toISOString(),
      ids: [],
    };
    const events = await allPages(async (NextToken) => {
      const out = await cloudtrail.send(
        new LookupEventsCommand({ StartTime: new Date(cursor.time), MaxResults: 50, NextToken }),
      );
      return { items: out.Events ?? [], next: out.NextToken };
    });
    const records = events.map(auditRecord);
    const { fresh, next } = advanceCursor(cursor, records);
    return { records: fresh, cursor: encodeCursor(next) };
  }

  async function check(name: string, run: () => Promise<string>, explain: (error: unknown) => string) {
    try {
      return { name, ok: true, message: await run() };
    } catch (error) {
      return { name, ok: false, message: explain(error) };
    }
  }

  const where = connection.endpoint ?? `AWS (${connection.region})`;
  function unreachable(error: unknown): string | undefined {
    return isUnreachable(error)
      ? `Cannot reach ${where}: ${errorMessage(error)}. Check the network path from the Palisade server.`
      : undefined;
  }
  const missing = (action: string) => (error: unknown) =>
    unreachable(error) ??
    (/AccessDenied/.test(errorCode(error))
      ? `The role ${connection.roleArn} may not call ${action}. Attach the permissions policy from the setup instructions to the role.`
      : `${action} failed: ${errorMessage(error)}`);

  async function verify(): Promise<ConnectionCheck[]> {
    const assume = await check(
      "Assume role",
      async () => {
        session = undefined;
        await credentials();
        return `Assumed ${connection.roleArn}.`;
      },
      (error) =>
        unreachable(error) ??
        (/AccessDenied/.test(errorCode(error))
          ? `AssumeRole on ${connection.roleArn} was denied. Check that the role exists in account ${connection.managementAccountId}, that its trust policy allows Palisade's principal, and that it requires exactly the external id ${connection.externalId}.`
          : errorCode(error) === "CredentialsProviderError"
            ? "The Palisade server has no AWS identity to call sts:AssumeRole with. Give it one (environment variables, instance profile, task role) that the role's trust policy names."
            : /InvalidClientTokenId|SignatureDoesNotMatch|UnrecognizedClient|ExpiredToken/.test(
                  errorCode(error),
                )
              ? `Palisade's own AWS credentials were refused (${errorCode(error)}). Renew the server's AWS identity.`
              : `AssumeRole failed: ${errorMessage(error)}`),
    );
    if (!assume.ok) return [assume];
    const checks: ConnectionCheck[] = [assume];
    checks.push(
      await check(
        "Read the organisation",
        async () => {
          const org = await call(() => organizations.send(new DescribeOrganizationCommand({})));
          const master = org.Organization?.MasterAccountId;
          if (master && master !== connection.managementAccountId) {
            throw Object.assign(new Error("wrong account"), { code: "WrongAccount", master });
          }
          const roots = await call(() => organizations.send(new ListRootsCommand({})));
          return `Organisation ${org.Organization?.Id ?? ""} with ${roots.Roots?.length ?? 0} root(s).`;
        },
        (error) =>
          errorCode(error) === "WrongAccount"
            ? `The organisation's management account is ${(error as { master: string }).master}, not ${connection.managementAccountId}. Create the role in the management account.`
            : errorCode(error) === "AWSOrganizationsNotInUseException"
              ? `Account ${connection.managementAccountId} is not part of an organisation. Enable AWS Organizations with all features.`
              : missing("organizations:DescribeOrganization and organizations:ListRoots")(error),
      ),
    );
    checks.push(
      await check(
        "List service control policies",
        async () => {
          const out = await call(() =>
            organizations.send(new ListPoliciesCommand({ Filter: SCP, MaxResults: 20 })),
          );
          return `${out.Policies?.length ?? 0} SCP(s) readable.`;
        },
        (error) =>
          errorCode(error) === "PolicyTypeNotEnabledException"
            ? "Service control policies are not enabled on the organisation root. Enable the SCP policy type in AWS Organizations."
            : missing("organizations:ListPolicies")(error),
      ),
    );
    checks.push(
      await check(
        "Read CloudTrail events",
        async () => {
          await call(() => cloudtrail.send(new LookupEventsCommand({ MaxResults: 1 })));
          return `CloudTrail events readable in ${connection.region}.`;
        },
        missing("cloudtrail:LookupEvents"),
      ),
    );
    return checks;
  }

  return {
    provider: "aws",
    verify,
    listHierarchy,
    readAuditEvents,
    // SCPs have no audit mode, so there is no compliance state to read: ALERT deployments are
    // evaluated from the audit stream instead.
    readCompliance: async () => [],
    async applyScp(compiled, policyId) {
      const ref = await putScp(compiled, policyId);
      const wanted = new Set(compiled.attach ? compiled.targets : []);
      const current = new Set(await listScpTargets(ref.id));
      // Attach first: a target that would lose its last SCP refuses the detach.
      for (const target of wanted) if (!current.has(target)) await attachScp(ref.id, target);
      for (const target of current) if (!wanted.has(target)) await detachScp(ref.id, target);
      return ref;
    },
    removeScp,
    putScp,
    attachScp,
    detachScp,
    listScpTargets,
    findScpByName,
    close() {
      sts.destroy();
      organizations.destroy();
      cloudtrail.destroy();
    },
  };
}

function auditRecord(event: Event): AuditRecord {
  let detail: {
    errorCode?: string;
    errorMessage?: string;
    recipientAccountId?: string;
    userIdentity?: { arn?: string };
  } = {};
  try {
    detail = event.CloudTrailEvent ? JSON.parse(event.CloudTrailEvent) : {};
  } catch {
    // A record that is not JSON still carries its id, time and name.
  }
  const service = (event.EventSource ?? "").split(".")[0] ?? "";
  return {
    id: event.EventId ?? "",
    time: event.EventTime ?? new Date(0),
    action: service ? `${service}:${event.EventName ?? ""}` : (event.EventName ?? ""),
    principal: detail.userIdentity?.arn ?? event.Username,
    scopeId: detail.recipientAccountId,
    errorCode: detail.errorCode,
    errorMessage: detail.errorMessage,
    raw: event,
  };
}
