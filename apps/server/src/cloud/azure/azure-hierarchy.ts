import type { HierarchyEntry } from "../cloud-provider";
import { errorCode, errorMessage, errorStatus } from "../errors";
import type { AzureClients } from "./azure-clients";

const PORTAL = "https://portal.azure.com";
const groupId = (name: string) => `/providers/Microsoft.Management/managementGroups/${name}`;

/** Management groups, subscriptions and resource groups below the root group, parents first. */
export async function listAzureHierarchy(
  { managementGroups, clientsFor, call, collect }: AzureClients,
  connection: { tenantId: string; consoleLinks: boolean },
  rootGroup: string,
): Promise<HierarchyEntry[]> {
  const portal = (path: string) => (connection.consoleLinks ? `${PORTAL}/${path}` : "");
  const root = await call(() => managementGroups.managementGroups.get(rootGroup));
  const descendants = await collect((settings) =>
    managementGroups.managementGroups.listDescendants(rootGroup).byPage(settings),
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
  const subscriptions: { id: string; name: string }[] = [];
  for (const d of descendants) {
    const isSubscription = (d.type ?? "").toLowerCase().endsWith("/subscriptions");
    const externalId = isSubscription ? `/subscriptions/${d.name}` : groupId(d.name ?? "");
    if (isSubscription && d.name) subscriptions.push({ id: d.name, name: d.displayName ?? d.name });
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
    subscriptions.map(async ({ id: subscriptionId, name }) =>
      (
        await collect((settings) =>
          clientsFor(subscriptionId).rm.resourceGroups.list().byPage(settings),
        ).catch((error: unknown) => {
          throw new ScopeReadError(`Subscription ${name} (${subscriptionId})`, error);
        })
      ).map((rg): HierarchyEntry => {
        const externalId = `/subscriptions/${subscriptionId}/resourceGroups/${rg.name}`;
        return {
          externalId,
          parentExternalId: `/subscriptions/${subscriptionId}`,
          name: rg.name ?? "",
          type: "AZURE_RESOURCE_GROUP",
          link: portal(`#@${connection.tenantId}/resource${externalId}/overview`),
        };
      }),
    ),
  );
  // Parents before children: descendants may come in any order.
  return orderParentsFirst([...entries, ...groups.flat()]);
}

/** A read refused at one scope, named as the portal names it; the cloud's code and status kept. */
export class ScopeReadError extends Error {
  override name = "ScopeReadError";
  readonly code: string;
  readonly statusCode: number | undefined;
  constructor(scope: string, cause: unknown) {
    super(`${scope}: ${errorMessage(cause)}`, { cause });
    this.code = errorCode(cause);
    this.statusCode = errorStatus(cause);
  }
}

/** Every subscription below the root group: its id and the name the portal shows. */
export async function subscriptionsBelow(
  { managementGroups, collect }: AzureClients,
  rootGroup: string,
): Promise<{ id: string; name: string }[]> {
  const descendants = await collect((settings) =>
    managementGroups.managementGroups.listDescendants(rootGroup).byPage(settings),
  );
  return descendants
    .filter((d) => (d.type ?? "").toLowerCase().endsWith("/subscriptions") && d.name)
    .map((d) => ({ id: d.name as string, name: d.displayName ?? (d.name as string) }));
}

/** The ids of every subscription below the root group. */
export async function subscriptionIds(clients: AzureClients, rootGroup: string): Promise<string[]> {
  return (await subscriptionsBelow(clients, rootGroup)).map((s) => s.id);
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
