import { Agent } from "node:https";
import { ManagementGroupsAPI } from "@azure/arm-managementgroups";
import { type EventData, MonitorClient } from "@azure/arm-monitor";
import { PolicyClient } from "@azure/arm-policy";
import { PolicyInsightsClient } from "@azure/arm-policyinsights";
import { ResourceManagementClient } from "@azure/arm-resources";
import { ClientCertificateCredential, ClientSecretCredential, type TokenCredential } from "@azure/identity";
import type { AzurePolicyExemptionResource } from "@palisade/policy-engine/compilers/azure/compile-azure";
import { type AuditCursor, advanceCursor, decodeCursor, encodeCursor } from "../audit-cursor";
import type {
  AuditPage,
  AuditRecord,
  AzureCloudProvider,
  ComplianceRecord,
  ConnectionCheck,
  HierarchyEntry,
} from "../cloud-provider";
import { errorCode, errorMessage, errorStatus, isNotFound, isUnreachable } from "../errors";
import { createLimiter, DEFAULT_RETRY, type RetryOptions, withRetry } from "../retry";

/** What Palisade needs to reach one Azure (Entra ID) tenant. */
export interface AzureConnection {
  tenantId: string;
  clientId: string;
  credential: { kind: "secret"; clientSecret: string } | { kind: "certificate"; pem: string };
  /** ARM endpoint; https://management.azure.com when absent. */
  armEndpoint?: string;
  /** Token authority; https://login.microsoftonline.com when absent. */
  authorityHost?: string;
  /** Extra CA to trust (the sandbox's private CA). */
  caCertPem?: string;
  /** The tenant root group, named after the tenant id unless given. */
  rootManagementGroupId?: string;
  consoleLinks: boolean;
  concurrency?: number;
  retry?: RetryOptions;
}

/** Built-in roles the app registration needs, shown in the setup instructions. */
export const AZURE_REQUIRED_ROLES = [
  {
    roleName: "Resource Policy Contributor",
    reason: "Create policy definitions, assignments and exemptions (guardrails and waivers).",
  },
  {
    roleName: "Management Group Reader",
    reason: "Read the management group and subscription hierarchy.",
  },
  {
    roleName: "Reader",
    reason: "Read resource groups, the Activity Log and policy compliance states.",
  },
] as const;

const ARM_SCOPE = "https://management.azure.com/.default";
const EXEMPTION_API_VERSION = "2022-07-01-preview";
const ASSIGNMENT_API_VERSION = "2023-04-01";
const PORTAL = "https://portal.azure.com";
const ACTIVITY_LOG_DAYS = 89;

interface ArmParts {
  kind: "managementGroup" | "subscription";
  id: string;
  name: string;
}

/** Splits `/providers/Microsoft.Management/managementGroups/<mg>/providers/Microsoft.Authorization/<type>/<name>`. */
export function parseDefinitionId(id: string): ArmParts {
  const mg =
    /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)\/providers\/Microsoft\.Authorization\/policyDefinitions\/([^/]+)$/i.exec(
      id,
    );
  if (mg?.[1] && mg[2]) return { kind: "managementGroup", id: mg[1], name: mg[2] };
  const sub =
    /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Authorization\/policyDefinitions\/([^/]+)$/i.exec(id);
  if (sub?.[1] && sub[2]) return { kind: "subscription", id: sub[1], name: sub[2] };
  throw new Error(`Not a policy definition id at a management group or subscription: ${id}`);
}

/** `{scope}/providers/Microsoft.Authorization/policyAssignments/{name}` → scope and name. */
export function parseAssignmentId(id: string): { scope: string; name: string } {
  const match = /^(.*)\/providers\/Microsoft\.Authorization\/policyAssignments\/([^/]+)$/i.exec(id);
  if (!match?.[2]) throw new Error(`Not a policy assignment id: ${id}`);
  return { scope: match[1] || "/", name: match[2] };
}

export function createAzureProvider(connection: AzureConnection): AzureCloudProvider {
  const limiter = createLimiter(connection.concurrency ?? 4);
  const retry = connection.retry ?? DEFAULT_RETRY;
  const rootGroup = connection.rootManagementGroupId ?? connection.tenantId;
  const agent = connection.caCertPem ? new Agent({ ca: connection.caCertPem, keepAlive: true }) : undefined;
  const credentialOptions = {
    ...(connection.authorityHost
      ? { authorityHost: connection.authorityHost, disableInstanceDiscovery: true }
      : {}),
    ...(agent ? { agent } : {}),
  };
  const credential: TokenCredential =
    connection.credential.kind === "secret"
      ? new ClientSecretCredential(
          connection.tenantId,
          connection.clientId,
          connection.credential.clientSecret,
          credentialOptions,
        )
      : new ClientCertificateCredential(
          connection.tenantId,
          connection.clientId,
          { certificate: connection.credential.pem },
          credentialOptions,
        );
  // The pipelines' own retries are off: throttling is retried by `withRetry` instead.
  const clientOptions = {
    ...(connection.armEndpoint ? { endpoint: connection.armEndpoint } : {}),
    ...(agent ? { agent } : {}),
    retryOptions: { maxRetries: 0 },
  };
  const managementGroups = new ManagementGroupsAPI(credential, clientOptions);
  const resources = new ResourceManagementClient(credential, clientOptions);
  const insights = new PolicyInsightsClient(credential, clientOptions);
  const perSubscription = new Map<
    string,
    { policy: PolicyClient; monitor: MonitorClient; rm: ResourceManagementClient }
  >();
  const clientsFor = (subscriptionId: string) => {
    let clients = perSubscription.get(subscriptionId);
    if (!clients) {
      clients = {
        policy: new PolicyClient(credential, subscriptionId, clientOptions),
        monitor: new MonitorClient(credential, subscriptionId, clientOptions),
        rm: new ResourceManagementClient(credential, subscriptionId, clientOptions),
      };
      perSubscription.set(subscriptionId, clients);
    }
    return clients;
  };
  // Management group operations take no subscription; any id builds the client.
  const tenantPolicy = new PolicyClient(credential, clientOptions);

  const call = <T>(send: () => Promise<T>) => limiter.run(() => withRetry(send, retry));

  /** Reads a paged list, each page through the limiter and retry. */
  async function collect<T>(list: () => AsyncIterable<T[]>): Promise<T[]> {
    const out: T[] = [];
    const pages = list()[Symbol.asyncIterator]();
    for (;;) {
      const next = await call(() => pages.next());
      if (next.done) return out;
      out.push(...next.value);
    }
  }

  const portal = (path: string) => (connection.consoleLinks ? `${PORTAL}/${path}` : "");
  const groupId = (name: string) => `/providers/Microsoft.Management/managementGroups/${name}`;

  async function listHierarchy(): Promise<HierarchyEntry[]> {
    const root = await call(() => managementGroups.managementGroups.get(rootGroup));
    const descendants = await collect(() =>
      managementGroups.managementGroups.listDescendants(rootGroup).byPage(),
    );
    const entries: HierarchyEntry[] = [
      {
        externalId: groupId(rootGroup),
        parentExternalId: undefined,
        name: root.displayName ?? rootGroup,
        type: "AZURE_MANAGEMENT_GROUP",
        link: portal(
          `#view/Microsoft_Azure_ManagementGroups/ManagmentGroupDrilldownMenuBlade/~/overview/tenantId/${connection.tenantId}/mgId/${rootGroup}`,
        ),
      },
    ];
    const subscriptions: string[] = [];
    for (const d of descendants) {
      const isSubscription = (d.type ?? "").toLowerCase().endsWith("/subscriptions");
      const externalId = isSubscription ? `/subscriptions/${d.name}` : groupId(d.name ?? "");
      if (isSubscription && d.name) subscriptions.push(d.name);
      entries.push({
        externalId,
        parentExternalId: d.parent?.id,
        name: d.displayName ?? d.name ?? "",
        type: isSubscription ? "AZURE_SUBSCRIPTION" : "AZURE_MANAGEMENT_GROUP",
        link: isSubscription
          ? portal(`#@${connection.tenantId}/resource${externalId}/overview`)
          : portal(
              `#view/Microsoft_Azure_ManagementGroups/ManagmentGroupDrilldownMenuBlade/~/overview/tenantId/${connection.tenantId}/mgId/${d.name}`,
            ),
      });
    }
    const groups = await Promise.all(
      subscriptions.map(async (subscriptionId) =>
        (await collect(() => clientsFor(subscriptionId).rm.resourceGroups.list().byPage())).map(
          (rg): HierarchyEntry => {
            const externalId = `/subscriptions/${subscriptionId}/resourceGroups/${rg.name}`;
            return {
              externalId,
              parentExternalId: `/subscriptions/${subscriptionId}`,
              name: rg.name ?? "",
              type: "AZURE_RESOURCE_GROUP",
              link: portal(`#@${connection.tenantId}/resource${externalId}/overview`),
            };
          },
        ),
      ),
    );
    // Parents before children: descendants may come in any order.
    return orderParentsFirst([...entries, ...groups.flat()]);
  }

  async function subscriptionIds(): Promise<string[]> {
    const descendants = await collect(() =>
      managementGroups.managementGroups.listDescendants(rootGroup).byPage(),
    );
    return descendants
      .filter((d) => (d.type ?? "").toLowerCase().endsWith("/subscriptions") && d.name)
      .map((d) => d.name as string);
  }

  async function ignoreMissing(run: () => Promise<unknown>, codes: string[]): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!isNotFound(error, codes)) throw error;
    }
  }

  async function readAuditEvents(
    cursorText: string | undefined,
    options?: { since?: Date },
  ): Promise<AuditPage> {
    const oldest = new Date(Date.now() - ACTIVITY_LOG_DAYS * 86_400_000);
    const cursor: AuditCursor = decodeCursor(cursorText) ?? {
      time: (options?.since ?? oldest).toISOString(),
      ids: [],
    };
    const filter = `eventTimestamp ge '${cursor.time}'`;
    const perSub = await Promise.all(
      (await subscriptionIds()).map((id) =>
        collect(() => clientsFor(id).monitor.activityLogs.list(filter).byPage()),
      ),
    );
    const { fresh, next } = advanceCursor(cursor, perSub.flat().map(activityRecord));
    return { records: fresh, cursor: encodeCursor(next) };
  }

  async function readCompliance(options?: { since?: Date }): Promise<ComplianceRecord[]> {
    const states = await collect(() =>
      insights.policyStates
        .listQueryResultsForManagementGroup("latest", rootGroup, {
          queryOptions: options?.since ? { from: options.since } : {},
        })
        .byPage(),
    );
    return states.map((s) => ({
      resourceId: s.resourceId ?? "",
      policyAssignmentId: s.policyAssignmentId ?? "",
      policyDefinitionId: s.policyDefinitionId ?? "",
      compliant: s.isCompliant ?? s.complianceState?.toLowerCase() === "compliant",
      time: s.timestamp ?? new Date(0),
      subscriptionId: s.subscriptionId,
    }));
  }

  const where = connection.armEndpoint ?? "Azure Resource Manager";
  function explain(action: string, role: string) {
    return (error: unknown): string => {
      if (isUnreachable(error))
        return `Cannot reach ${where}: ${errorMessage(error)}. Check the network path from the Palisade server.`;
      const status = errorStatus(error);
      if (status === 403 || errorCode(error) === "AuthorizationFailed")
        return `The app registration ${connection.clientId} may not ${action}. Assign it the "${role}" role at the tenant root management group.`;
      return `${action} failed: ${errorMessage(error)}`;
    };
  }

  async function check(name: string, run: () => Promise<string>, onError: (error: unknown) => string) {
    try {
      return { name, ok: true, message: await run() };
    } catch (error) {
      return { name, ok: false, message: onError(error) };
    }
  }

  async function verify(): Promise<ConnectionCheck[]> {
    const token = await check(
      "Sign in to Entra ID",
      async () => {
        await credential.getToken(ARM_SCOPE);
        return `Signed in as application ${connection.clientId}.`;
      },
      (error) => {
        const text = errorMessage(error);
        if (isUnreachable(error))
          return `Cannot reach the sign-in endpoint ${connection.authorityHost ?? "login.microsoftonline.com"}: ${text}.`;
        if (/AADSTS7000215|AADSTS7000222|AADSTS700027/.test(text))
          return "The client secret or certificate was refused (wrong, expired or not uploaded to the app registration). Create a new secret and update the connector.";
        if (/AADSTS700016/.test(text))
          return `No application ${connection.clientId} in tenant ${connection.tenantId}. Check the application (client) id and tenant id.`;
        if (/AADSTS90002|AADSTS900023/.test(text))
          return `Tenant ${connection.tenantId} was not found. Check the tenant id.`;
        return `Sign-in failed: ${text}`;
      },
    );
    if (!token.ok) return [token];
    const checks: ConnectionCheck[] = [token];
    let firstSubscription: string | undefined;
    checks.push(
      await check(
        "Read management groups",
        async () => {
          const ids = await subscriptionIds();
          firstSubscription = ids[0];
          return `Tenant root group readable, ${ids.length} subscription(s) below it.`;
        },
        explain("read the management group hierarchy", "Management Group Reader"),
      ),
    );
    checks.push(
      await check(
        "Read policy assignments",
        async () => {
          const items = await collect(() =>
            tenantPolicy.policyAssignments.listForManagementGroup(rootGroup).byPage(),
          );
          return `${items.length} assignment(s) at the tenant root group readable.`;
        },
        explain("read policy assignments", "Resource Policy Contributor"),
      ),
    );
    if (firstSubscription) {
      const subscriptionId = firstSubscription;
      checks.push(
        await check(
          "Read the Activity Log",
          async () => {
            const since = new Date(Date.now() - 3_600_000).toISOString();
            const pages = clientsFor(subscriptionId)
              .monitor.activityLogs.list(`eventTimestamp ge '${since}'`)
              .byPage();
            await call(() => pages[Symbol.asyncIterator]().next());
            return `Activity Log of subscription ${subscriptionId} readable.`;
          },
          explain("read the Activity Log", "Reader"),
        ),
      );
    }
    return checks;
  }

  return {
    provider: "azure",
    verify,
    listHierarchy,
    readAuditEvents,
    readCompliance,
    async putDefinition(definition) {
      const target = parseDefinitionId(definition.id);
      const body = { ...definition.properties };
      const out =
        target.kind === "managementGroup"
          ? await call(() =>
              tenantPolicy.policyDefinitions.createOrUpdateAtManagementGroup(target.id, target.name, body),
            )
          : await call(() =>
              clientsFor(target.id).policy.policyDefinitions.createOrUpdate(target.name, body),
            );
      return out.id ?? definition.id;
    },
    async removeDefinition(definitionId) {
      const target = parseDefinitionId(definitionId);
      await ignoreMissing(
        () =>
          target.kind === "managementGroup"
            ? call(() => tenantPolicy.policyDefinitions.deleteAtManagementGroup(target.id, target.name))
            : call(() => clientsFor(target.id).policy.policyDefinitions.delete(target.name)),
        ["PolicyDefinitionNotFound"],
      );
    },
    async putAssignment(assignment) {
      const { scope, name } = parseAssignmentId(assignment.id);
      const { scope: _scope, ...body } = assignment.properties;
      const out = await call(() => tenantPolicy.policyAssignments.create(scope, name, body));
      return out.id ?? assignment.id;
    },
    async removeAssignment(assignmentId) {
      parseAssignmentId(assignmentId);
      // arm-policy's delete fails to read ARM's empty 204 for an assignment already gone; the
      // generic DELETE of the same resource id handles it.
      await ignoreMissing(
        () => call(() => resources.resources.beginDeleteByIdAndWait(assignmentId, ASSIGNMENT_API_VERSION)),
        ["PolicyAssignmentNotFound"],
      );
    },
    async assignmentExists(assignmentId) {
      parseAssignmentId(assignmentId);
      try {
        await call(() => resources.resources.getById(assignmentId, ASSIGNMENT_API_VERSION));
        return true;
      } catch (error) {
        if (isNotFound(error, ["PolicyAssignmentNotFound"])) return false;
        throw error;
      }
    },
    async putExemption(exemption: AzurePolicyExemptionResource) {
      // arm-policy has no exemption operations; an exemption is a plain ARM extension resource.
      const out = await call(() =>
        resources.resources.beginCreateOrUpdateByIdAndWait(exemption.id, EXEMPTION_API_VERSION, {
          properties: { ...exemption.properties },
        }),
      );
      return out.id ?? exemption.id;
    },
    async removeExemption(exemptionId) {
      await ignoreMissing(
        () => call(() => resources.resources.beginDeleteByIdAndWait(exemptionId, EXEMPTION_API_VERSION)),
        ["PolicyExemptionNotFound"],
      );
    },
    close() {
      agent?.destroy();
    },
  };
}

function orderParentsFirst(entries: HierarchyEntry[]): HierarchyEntry[] {
  const byId = new Map(entries.map((e) => [e.externalId.toLowerCase(), e]));
  const placed = new Set<string>();
  const out: HierarchyEntry[] = [];
  const place = (entry: HierarchyEntry, depth: number) => {
    const key = entry.externalId.toLowerCase();
    if (placed.has(key) || depth > 64) return;
    const parent = entry.parentExternalId ? byId.get(entry.parentExternalId.toLowerCase()) : undefined;
    if (parent) place(parent, depth + 1);
    placed.add(key);
    out.push(entry);
  };
  for (const entry of entries) place(entry, 0);
  return out;
}

function activityRecord(event: EventData): AuditRecord {
  const failed = event.status?.value === "Failed";
  const statusMessage = event.properties?.statusMessage;
  let message: string | undefined;
  let code: string | undefined;
  if (failed && statusMessage) {
    try {
      const parsed = JSON.parse(statusMessage) as { error?: { code?: string; message?: string } };
      code = parsed.error?.code;
      message = parsed.error?.message;
    } catch {
      message = statusMessage;
    }
  }
  return {
    id: event.eventDataId ?? event.id ?? "",
    time: event.eventTimestamp ?? new Date(0),
    action: event.operationName?.value ?? "",
    principal: event.caller,
    scopeId: event.subscriptionId,
    errorCode: failed ? (code ?? event.subStatus?.value ?? "Failed") : undefined,
    errorMessage: message,
    raw: event,
  };
}
