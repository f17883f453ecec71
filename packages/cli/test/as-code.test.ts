import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  type DeploymentBundle,
  DeploymentMode,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { WaiverApprovalMode, WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hierarchyNodes } from "../../../apps/server/src/modules/connector/connector-schema";
import { createSandboxConnector } from "../../../apps/server/src/modules/connector/connectors";
import { node, waitForBundleStatus } from "../../../apps/server/test/support/deployment-helpers";
import { waitFor } from "../../../apps/server/test/support/poll";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "../../../apps/server/test/support/sandbox-server";
import type { Credentials, TestServer } from "../../../apps/server/test/support/test-server";
import { runCli } from "./run-cli";

// Guardrails as code against a real server with the sandbox cloud: a tenant's bundles and
// pre-approved waivers are exported to files and applied to a fresh tenant.

const SOURCE = "guardrails";
const COMMIT = "3f2c1e0";

/** What a person compares between two tenants' bundles: everything but ids, keys and times. */
function comparable(bundle: DeploymentBundle) {
  return {
    name: bundle.name,
    policySlug: bundle.policySlug,
    provider: bundle.provider,
    mode: bundle.mode,
    scopes: bundle.scopes.map((s) => s.externalId),
    excludedScopes: bundle.excludedScopes.map((s) => s.externalId),
    parameters: bundle.parameters,
    isVisible: bundle.isVisible,
    namespace: bundle.namespace,
    approvalMode: bundle.waiverSettings?.approvalMode,
    affectedResourceTypes: bundle.affectedResourceTypes,
  };
}

describe("palisade export, plan and apply against a server", () => {
  let server: TestServer;
  let admin: Credentials;
  let freshTenant: string;
  let freshAdmin: Credentials;
  let sourceKey: string;
  let freshKey: string;
  const dir = mkdtempSync(join(tmpdir(), "palisade-as-code-"));
  const folder = join(dir, SOURCE);

  const db = () => server.palisade.database.db;
  const env = (key: string) => ({ PALISADE_URL: server.url, PALISADE_API_KEY: key });
  const bundlesOf = async (credentials: Credentials) =>
    (
      await server.client(DeploymentManagerService, credentials).listBundle({ pagination: { limit: 200 } })
    ).items
      .map((item) => item.bundle as DeploymentBundle)
      .sort((a, b) => a.name.localeCompare(b.name));
  const apiKey = async (credentials: Credentials, role: Role) =>
    (await server.client(TeamService, credentials).createApiKey({ name: `cli ${Role[role]}`, role })).key;

  beforeAll(async () => {
    ({
      server,
      members: { admin },
    } = await startSandboxServer({
      members: ADMIN_AND_REQUESTER,
      scopes: ["corp-dev", "corp-prod", "rg-corp-dev-app"],
    }));
    const manager = server.client(DeploymentManagerService, admin);
    const tenant = server.defaultTenantId;
    const corpDev = await node(db(), tenant, "corp-dev");
    const corpProd = await node(db(), tenant, "corp-prod");
    const appGroup = await node(db(), tenant, "rg-corp-dev-app");
    const https = await manager.createBundle({
      name: "Storage HTTPS only",
      policySlug: "storage-accounts-https-only",
      scopes: [{ externalId: corpDev.externalId }],
      excludedScopes: [{ externalId: appGroup.externalId }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      namespace: "payments",
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const locations = await manager.createBundle({
      name: "Allowed locations",
      policySlug: "allowed-locations",
      scopes: [{ externalId: corpProd.externalId }],
      mode: DeploymentMode.ALERT,
      parameters: { listOfAllowedLocations: ["westeurope"] },
      isVisible: false,
      waiverSettings: { approvalMode: WaiverApprovalMode.MANUAL },
    });
    for (const created of [https, locations])
      await waitForBundleStatus(db(), created.bundle?.entity?.id ?? "", ["DEPLOYED"], 60_000);
    await manager.createWaiver({
      key: https.bundle?.key ?? "",
      expiresAt: timestampFromDate(new Date(Date.now() + 24 * 3_600_000)),
      waiverRequest: {
        target: {
          case: "targetScope",
          value: { externalId: `${corpDev.externalId}/resourceGroups/rg-corp-dev-data` },
        },
        createSource: WaiverCreateSource.SYSTEM,
        requester: {
          name: "Alice Engineer",
          identifier: "alice@example.com",
          comment: "Legacy client migration",
        },
        ticketReference: "CHG-1234",
      },
    });
    sourceKey = await apiKey(admin, Role.ADMINISTRATOR);

    freshTenant = await server.createTenant("Fresh");
    freshAdmin = (
      await server.addMember({ role: "ADMINISTRATOR", tenantId: freshTenant, name: "Frida Admin" })
    ).credentials;
    const connector = await createSandboxConnector(db(), freshTenant, "azure", "Sandbox Azure tenant");
    await server.palisade.cloud.service.runtime.startSync(connector, null);
    await waitFor(
      "the fresh tenant's hierarchy",
      async () => {
        const nodes = await db()
          .select()
          .from(hierarchyNodes)
          .where(and(eq(hierarchyNodes.tenantId, freshTenant), eq(hierarchyNodes.name, "corp-prod")));
        return nodes.length > 0;
      },
      120_000,
    );
    freshKey = await apiKey(freshAdmin, Role.ADMINISTRATOR);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("exports one file per object, the same bytes every time, and the files are valid", async () => {
    const exported = await runCli(["export", folder], env(sourceKey));
    expect(exported.err).toBe("");
    expect(exported.code).toBe(0);
    const files = (sub: string) => readdirSync(join(folder, sub)).sort();
    expect(files("bundles")).toEqual(["allowed-locations.yaml", "storage-https-only.yaml"]);
    expect(files("waivers")).toHaveLength(1);
    expect(files("settings")).toEqual(["notifications.yaml", "tenant.yaml"]);
    const waiver = readFileSync(join(folder, "waivers", files("waivers")[0] as string), "utf8");
    expect(waiver).toContain("ticket: CHG-1234");
    expect(waiver).toContain("email: alice@example.com");

    const again = join(dir, "again");
    expect((await runCli(["export", again], env(sourceKey))).code).toBe(0);
    for (const sub of ["bundles", "waivers", "settings"]) {
      for (const name of files(sub))
        expect(readFileSync(join(again, sub, name), "utf8")).toBe(
          readFileSync(join(folder, sub, name), "utf8"),
        );
    }
    const validated = await runCli(["validate", folder]);
    expect(validated.err).toBe("");
    expect(validated.code).toBe(0);
  });

  it("applies the export to a fresh tenant, reproducing the bundles field by field, marked as managed", async () => {
    const planned = await runCli(["plan", folder, "--source", `${SOURCE}@${COMMIT}`], env(freshKey));
    expect(planned.code).toBe(2);
    expect(planned.out).toContain('create bundle "Storage HTTPS only" (bundles/storage-https-only.yaml)');

    const declined = await runCli(["apply", folder, "--source", `${SOURCE}@${COMMIT}`], env(freshKey), false);
    expect(declined.code).toBe(1);
    expect(await bundlesOf(freshAdmin)).toEqual([]);

    const applied = await runCli(
      ["apply", folder, "--auto-approve", "--source", `${SOURCE}@${COMMIT}`],
      env(freshKey),
    );
    expect(applied.err).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('bundle "Allowed locations": deployed');
    const source = await bundlesOf(admin);
    const fresh = await bundlesOf(freshAdmin);
    expect(fresh.map(comparable)).toEqual(source.map(comparable));
    expect(fresh.map((b) => [b.managedBy?.path, b.managedBy?.commit])).toEqual([
      [`${SOURCE}/bundles/allowed-locations.yaml`, COMMIT],
      [`${SOURCE}/bundles/storage-https-only.yaml`, COMMIT],
    ]);
    const waivers = (await server.client(WaiverService, freshAdmin).list({})).items;
    expect(waivers).toHaveLength(1);
    expect(waivers[0]).toMatchObject({
      ticketReference: "CHG-1234",
      requester: { identifier: "alice@example.com", comment: "Legacy client migration" },
      managedBy: { commit: COMMIT },
    });

    const replanned = await runCli(["plan", folder, "--source", `${SOURCE}@${COMMIT}`], env(freshKey));
    expect(replanned.out).toContain("No changes");
    expect(replanned.code).toBe(0);
  });

  it("shows a changed file as one change", async () => {
    const file = join(folder, "bundles", "allowed-locations.yaml");
    const before = readFileSync(file, "utf8");
    writeFileSync(file, before.replace("mode: alert", "mode: prevent"));
    const planned = await runCli(["plan", folder, "--source", SOURCE], env(freshKey));
    expect(planned.code).toBe(2);
    expect(planned.out).toContain("mode: alert → prevent");
    expect(planned.out).toContain("Plan: 0 to create, 1 to change, 0 to replace, 0 to remove.");
    writeFileSync(file, before);
  });

  it("refuses an API key without the permission, naming it", async () => {
    const integrator = await apiKey(freshAdmin, Role.INTEGRATOR);
    const file = join(folder, "bundles", "allowed-locations.yaml");
    const before = readFileSync(file, "utf8");
    writeFileSync(file, before.replace("mode: alert", "mode: prevent"));
    // Notification settings are read with TENANT_SETTINGS_WRITE, which an integrator lacks.
    const unread = await runCli(["plan", folder, "--source", SOURCE], env(integrator));
    expect(unread.code).toBe(1);
    expect(unread.err).toContain("error: permission_denied: Your role does not grant TENANT_SETTINGS_WRITE");
    unlinkSync(join(folder, "settings", "notifications.yaml"));
    const applied = await runCli(["apply", folder, "--auto-approve", "--source", SOURCE], env(integrator));
    writeFileSync(file, before);
    expect(applied.code).toBe(1);
    expect(applied.out).toContain("permission_denied: Your role does not grant POLICIES_WRITE_PREVENT");
    expect(`${applied.out}${applied.err}`).not.toMatch(/\n\s+at /);
  });

  it("prunes only managed objects whose file is gone, never one made by hand", async () => {
    const corpDev = await node(db(), freshTenant, "corp-dev");
    await server.client(DeploymentManagerService, freshAdmin).createBundle({
      name: "Made by hand",
      policySlug: "allowed-locations",
      scopes: [{ externalId: corpDev.externalId }],
      mode: DeploymentMode.ALERT,
      isVisible: true,
    });
    unlinkSync(join(folder, "bundles", "allowed-locations.yaml"));
    const kept = await runCli(["plan", folder, "--source", SOURCE], env(freshKey));
    expect(kept.code).toBe(0);
    expect(kept.out).toContain("1 managed bundle(s) are no longer in the files");
    const pruned = await runCli(
      ["apply", folder, "--auto-approve", "--prune", "--source", SOURCE],
      env(freshKey),
    );
    expect(pruned.code).toBe(0);
    expect(pruned.out).toContain('remove bundle "Allowed locations"');
    expect((await bundlesOf(freshAdmin)).map((b) => b.name)).toEqual(["Made by hand", "Storage HTTPS only"]);

    // Exported again over the folder, the managed bundle keeps its file and the hand-made one gets its own.
    writeFileSync(join(folder, "bundles", "stale.yaml"), "kind: Bundle\n");
    const exported = await runCli(["export", folder, "--force"], env(freshKey));
    expect(exported.code).toBe(0);
    expect(readdirSync(join(folder, "bundles")).sort()).toEqual([
      "made-by-hand.yaml",
      "storage-https-only.yaml",
    ]);
  });

  it("refuses a waiver whose requester owns the API key that applies it", async () => {
    const owner = await server.addMember({
      role: "ADMINISTRATOR",
      tenantId: freshTenant,
      email: "owner@palisade.test",
    });
    const ownersKey = await apiKey(owner.credentials, Role.ADMINISTRATOR);
    const [waiverFile] = readdirSync(join(folder, "waivers"));
    const path = join(folder, "waivers", waiverFile as string);
    writeFileSync(path, readFileSync(path, "utf8").replace("alice@example.com", "owner@palisade.test"));
    const applied = await runCli(["apply", folder, "--auto-approve", "--source", SOURCE], env(ownersKey));
    expect(applied.code).toBe(1);
    expect(applied.out).toContain("permission_denied: Separation of duties");
  });
});
