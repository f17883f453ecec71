import { Code } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { invitation } from "../src/modules/team/team-schema";
import { errorOf } from "./support/call-error";
import { node } from "./support/deployment-helpers";
import { startSandboxServer } from "./support/sandbox-server";
import type { Credentials, TestServer } from "./support/test-server";

const S3_SLUG = "protect-s3-account-public-access-block";

/** A creating call retried with the same Idempotency-Key (its first answer lost) creates nothing more. */
describe("idempotency keys of creating calls", () => {
  let server: TestServer;
  let admin: Credentials;

  beforeAll(async () => {
    ({
      server,
      members: { admin },
    } = await startSandboxServer({ members: { admin: "ADMINISTRATOR" } }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const keyed = (key: string) => ({ headers: { "idempotency-key": key } });
  const bundlesNamed = (name: string) =>
    server.palisade.database.db
      .select({ id: bundles.id })
      .from(bundles)
      .where(and(eq(bundles.tenantId, server.defaultTenantId), eq(bundles.name, name)));

  it("CreateBundle retried with the same key answers the first bundle, and only one exists", async () => {
    const row = await node(server.palisade.database.db, server.defaultTenantId, "Workloads");
    const request = {
      name: "S3 guard once",
      policySlug: S3_SLUG,
      scopes: [{ externalId: row.externalId, connectorId: row.connectorId }],
      mode: DeploymentMode.ALERT,
    };
    const manager = server.client(DeploymentManagerService, admin);
    const first = await manager.createBundle(request, keyed("create-s3-guard-1"));
    const retried = await manager.createBundle(request, keyed("create-s3-guard-1"));
    expect(retried.bundle?.entity?.id).toBe(first.bundle?.entity?.id);
    expect(retried.bundle?.key).toBe(first.bundle?.key);
    expect(await bundlesNamed("S3 guard once")).toHaveLength(1);

    // Two retries at once: one bundle still.
    const racing = await Promise.allSettled([
      manager.createBundle({ ...request, name: "S3 guard raced" }, keyed("create-s3-guard-2")),
      manager.createBundle({ ...request, name: "S3 guard raced" }, keyed("create-s3-guard-2")),
    ]);
    expect(racing.some((r) => r.status === "fulfilled")).toBe(true);
    for (const r of racing) if (r.status === "rejected") expect(String(r.reason)).toMatch(/still running/);
    expect(await bundlesNamed("S3 guard raced")).toHaveLength(1);

    const reused = await errorOf(
      manager.createBundle({ ...request, name: "Another" }, keyed("create-s3-guard-1")),
    );
    expect(reused.code).toBe(Code.InvalidArgument);
    expect(reused.rawMessage).toMatch(/different request/);
    expect(await bundlesNamed("Another")).toHaveLength(0);

    // Without a key, each call creates.
    await manager.createBundle({ ...request, name: "S3 guard twice" });
    await manager.createBundle({ ...request, name: "S3 guard twice" });
    expect(await bundlesNamed("S3 guard twice")).toHaveLength(2);
  });

  it("InviteMember retried with the same key answers the first invitation", async () => {
    const team = server.client(TeamService, admin);
    const request = { email: "once@example.com", role: Role.VIEWER };
    const first = await team.inviteMember(request, keyed("invite-once"));
    const retried = await team.inviteMember(request, keyed("invite-once"));
    expect(retried.invitation?.id).toBe(first.invitation?.id);
    const rows = await server.palisade.database.db
      .select({ id: invitation.id })
      .from(invitation)
      .where(eq(invitation.email, "once@example.com"));
    expect(rows).toHaveLength(1);
  });

  it("refuses a key longer than 128 characters", async () => {
    const refused = await errorOf(
      server
        .client(TeamService, admin)
        .inviteMember({ email: "long@example.com", role: Role.VIEWER }, keyed("k".repeat(129))),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
  });
});
