import {
  ListAccountsForParentCommand,
  ListOrganizationalUnitsForParentCommand,
  ListRootsCommand,
} from "@aws-sdk/client-organizations";
import type { HierarchyEntry } from "../cloud-provider";
import type { AwsClients } from "./aws-clients";

const CONSOLE = "https://console.aws.amazon.com/organizations/v2/home";

/** The root, OUs and accounts of the organisation, parents before their children. */
export async function listAwsHierarchy(
  { organizations, allPages }: AwsClients,
  consoleLinks: boolean,
): Promise<HierarchyEntry[]> {
  const link = (path: string) => (consoleLinks ? `${CONSOLE}/${path}` : "");
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
