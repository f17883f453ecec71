import { randomBytes } from "node:crypto";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import {
  CloudProvider,
  ErrorDetailSchema,
  Order,
  ProductErrorCode,
  ScopeType,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import {
  type Waiver,
  WaiverApprovalMode,
  WaiverApprovalType,
  WaiverCreateSource,
  WaiverDeploymentStatus,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { ListOrderBy, WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../src/db/database";
import { WAIVER_EXPIRY_JOB } from "../src/jobs/waiver-expiry-job";
import { auditLog } from "../src/modules/audit/audit-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { tenantSettings } from "../src/modules/tenant/tenant-schema";
import { cancelWaiversOfBundle } from "../src/modules/waiver/waiver-lifecycle";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { expectDeployed, flatten } from "./support/deployment-helpers";
import { waitFor } from "./support/poll";
import { startSandboxServer } from "./support/sandbox-server";
import { createTestDatabase, type Engine, engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const HOUR = 3_600n;

/** A waiver is shown ACTIVE only once the cloud has it. */
function expectHonestStatus(waiver: Waiver | undefined) {
  expect(waiver).toBeDefined();
  if (waiver?.status === WaiverStatus.ACTIVE) {
    expect(waiver.deploymentStatus).toBe(WaiverDeploymentStatus.ACTIVE);
  }
  if (waiver?.deploymentStatus !== WaiverDeploymentStatus.ACTIVE) {
    expect(waiver?.status).not.toBe(WaiverStatus.ACTIVE);
  }
}

interface Seeded {
  bundleId: string;
  key: string;
  deploymentIds: string[];
}

/**
 * A bundle as the deployment engine stores it, with one deployment per scope. It has no
 * connector, so nothing reaches a cloud: these tests are about the waiver records.
 */
async function seedBundle(
  server: TestServer,
  options: { tenantId?: string; approval?: "AUTO" | "MANUAL"; scopes?: string[]; name?: string } = {},
): Promise<Seeded> {
  const db = server.palisade.database.db;
  const tenantId = options.tenantId ?? server.defaultTenantId;
  const key = generatePolicyKey((n) => randomBytes(n));
  const name = options.name ?? `Deny public S3 ${key}`;
  const scopes = options.scopes ?? ["111122223333"];
  const [bundle] = await db
    .insert(bundles)
    .values({
      tenantId,
      key,
      name,
      policySlug: "aws-s3-deny-public-access-change",
      provider: "AWS",
      mode: "PREVENT",
      status: "DEPLOYED",
      scopes: scopes.map((id) => ({ id })),
      waiverApprovalMode: options.approval ?? "AUTO",
      createdBy: "seed",
    })
    .returning();
  if (!bundle) throw new Error("no bundle");
  const rows = await db
    .insert(deployments)
    .values(
      scopes.map((scope) => ({
        tenantId,
        bundleId: bundle.id,
        key,
        scope: { id: scope },
        scopeExternalId: scope,
        mode: "PREVENT",
        status: "DEPLOYED",
        policySlug: bundle.policySlug,
        name,
        createdBy: "seed",
      })),
    )
    .returning();
  return { bundleId: bundle.id, key, deploymentIds: rows.map((r) => r.id) };
}

describe.each(engines)("waivers on %s", (engine) => {
  let server: TestServer;
  const as: Record<string, Credentials> = {};
  let otherTenantId: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    for (const role of ["VISITOR", "VIEWER", "MODERATOR", "EDITOR", "ADMINISTRATOR", "INTEGRATOR"]) {
      as[role] = (
        await server.addMember({
          role,
          name: `${role.toLowerCase()} person`,
          email: `${role.toLowerCase()}-${engine}@palisade.test`,
        })
      ).credentials;
    }
    otherTenantId = await server.createTenant("Other");
    as.OTHER_EDITOR = (
      await server.addMember({ role: "EDITOR", tenantId: otherTenantId, name: "Olga Other" })
    ).credentials;
    as.OTHER_ADMIN = (await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenantId })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const client = (who: string) => server.client(WaiverService, as[who]);
  const db = () => server.palisade.database.db;

  async function stored(id: string | undefined) {
    const [row] = await db()
      .select()
      .from(waivers)
      .where(eq(waivers.id, id ?? ""));
    if (!row) throw new Error(`no waiver ${id}`);
    return row;
  }

  describe("create", () => {
    it("activates an AUTO waiver at once, for the requester, with expiry = activation + duration", async () => {
      const seeded = await seedBundle(server);
      const before = Date.now();
      const { waiver } = await client("VISITOR").create({
        key: seeded.key.toLowerCase(),
        duration: 2n * HOUR,
        comment: "  hotfix for the payments bucket  ",
      });
      expectHonestStatus(waiver);
      expect(waiver?.policyKey).toBe(seeded.key);
      expect(waiver?.approvalType).toBe(WaiverApprovalType.AUTO);
      expect(waiver?.createSource).toBe(WaiverCreateSource.FORM);
      expect(waiver?.requester).toMatchObject({
        name: "visitor person",
        identifier: `visitor-${engine}@palisade.test`,
        comment: "hotfix for the payments bucket",
      });
      expect(waiver?.duration).toBe(7_200n);
      expect(waiver?.scope).toBe("Account 111122223333");
      expect(waiver?.policyDeployment?.id).toBe(seeded.deploymentIds[0]);
      const expires = Number(waiver?.expiresAt?.seconds) * 1000;
      expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7_200_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 7_200_000);
      const row = await stored(waiver?.entity?.id);
      expect(row.status).toBe("ACTIVE");
      expect(row.approvalType).toBe("AUTO");
    });

    it("leaves a MANUAL waiver PENDING without expiry until someone approves it", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const { waiver } = await client("VIEWER").create({
        key: seeded.key,
        duration: HOUR,
        comment: "need to rotate the key",
        createSource: WaiverCreateSource.TEAMS,
      });
      expect(waiver?.status).toBe(WaiverStatus.PENDING);
      expect(waiver?.approvalType).toBe(WaiverApprovalType.MANUAL);
      expect(waiver?.createSource).toBe(WaiverCreateSource.TEAMS);
      expect(waiver?.expiresAt).toBeUndefined();
      expect(waiver?.reviewer).toBeUndefined();
      expect((await stored(waiver?.entity?.id)).status).toBe("PENDING");
    });

    it("covers every scope of a bundle when no target is given, and the named account when one is", async () => {
      const seeded = await seedBundle(server, { scopes: ["111122223333", "444455556666"] });
      await client("EDITOR").create({ key: seeded.key, duration: HOUR, comment: "all scopes" });
      const rows = await db().select().from(waivers).where(eq(waivers.policyKey, seeded.key));
      expect(rows.map((r) => r.scope).sort()).toEqual(["111122223333", "444455556666"]);
      const { waiver } = await client("EDITOR").create({
        key: seeded.key,
        duration: HOUR,
        comment: "one account",
        target: { case: "scopeExternalId", value: "444455556666" },
      });
      expect(waiver?.policyDeployment?.id).toBe(seeded.deploymentIds[1]);
      const principal = await client("EDITOR").create({
        key: seeded.key,
        duration: HOUR,
        comment: "the deployer role",
        target: { case: "principalArn", value: "arn:aws:iam::111122223333:role/ci-deployer" },
      });
      expect(principal.waiver?.target).toEqual({
        case: "principalArn",
        value: "arn:aws:iam::111122223333:role/ci-deployer",
      });
      expect(principal.waiver?.policyDeployment?.id).toBe(seeded.deploymentIds[0]);
      const outside = await errorOf(
        client("EDITOR").create({
          key: seeded.key,
          duration: HOUR,
          comment: "elsewhere",
          target: { case: "scopeExternalId", value: "999999999999" },
        }),
      );
      expect(outside.code).toBe(Code.InvalidArgument);
      expect(outside.rawMessage).toContain("Account 999999999999 is not within any scope");
    });

    it.each([
      ["an empty key", { key: "", comment: "x" }, "Policy key is required"],
      ["a short key", { key: "ABC", comment: "x" }, "Key must be 7 characters long"],
      ["no comment", { comment: "   " }, "Comment is required"],
      ["a long comment", { comment: "c".repeat(221) }, "comment: must be at most 220 characters"],
      // Counted as a person sees them: 220 letters and one emoji joined from five code points is 221.
      [
        "a long comment",
        { comment: `${"c".repeat(220)}\u{1F468}\u200D\u{1F469}\u200D\u{1F467}` },
        "comment: must be at most 220 characters",
      ],
      [
        "under an hour",
        { duration: 3_599n },
        "duration: must be greater than or equal to 3600 and less than or equal to 259200",
      ],
      [
        "over 72 hours",
        { duration: 259_201n },
        "duration: must be greater than or equal to 3600 and less than or equal to 259200",
      ],
    ])("refuses %s", async (_name, change, message) => {
      const seeded = await seedBundle(server);
      const error = await errorOf(
        client("VIEWER").create({ key: seeded.key, duration: HOUR, comment: "valid", ...change }),
      );
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toContain(message);
    });

    it("holds the tenant's maximum duration", async () => {
      const tenantId = await server.createTenant("Short waivers");
      await db().insert(tenantSettings).values({ tenantId, maxWaiverDurationHours: 4 });
      const requester = await server.addMember({ role: "VISITOR", tenantId });
      const seeded = await seedBundle(server, { tenantId });
      const waiverClient = server.client(WaiverService, requester.credentials);
      const error = await errorOf(
        waiverClient.create({ key: seeded.key, duration: 5n * HOUR, comment: "long" }),
      );
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toContain("at most 4 hours");
      const { waiver } = await waiverClient.create({ key: seeded.key, duration: 4n * HOUR, comment: "ok" });
      expect(waiver?.duration).toBe(14_400n);
    });

    it("answers NotFound for a key no bundle has", async () => {
      const error = await errorOf(client("VIEWER").create({ key: "ZZZZZZ9", duration: HOUR, comment: "x" }));
      expect(error.code).toBe(Code.NotFound);
    });

    it("creates one waiver for a double-submitted form", async () => {
      const seeded = await seedBundle(server);
      const request = { key: seeded.key, duration: HOUR, comment: "double click" };
      const headers = { "Idempotency-Key": `form-${seeded.key}` };
      const [first, second] = await Promise.all([
        client("VIEWER").create(request, { headers }),
        client("VIEWER").create(request, { headers }),
      ]);
      expect(second.waiver?.entity?.id).toBe(first.waiver?.entity?.id);
      const again = await client("VIEWER").create(request, { headers });
      expect(again.waiver?.entity?.id).toBe(first.waiver?.entity?.id);
      // Another person with the same key, or the same person with a new key, is a new request.
      const other = await client("EDITOR").create(request, { headers });
      expect(other.waiver?.entity?.id).not.toBe(first.waiver?.entity?.id);
      const fresh = await client("VIEWER").create(request, { headers: { "Idempotency-Key": "another" } });
      expect(fresh.waiver?.entity?.id).not.toBe(first.waiver?.entity?.id);
      const rows = await db().select().from(waivers).where(eq(waivers.policyKey, seeded.key));
      expect(rows).toHaveLength(3);
    });

    it("returns a new waiver once the first is older than ten minutes", async () => {
      const seeded = await seedBundle(server);
      const request = { key: seeded.key, duration: HOUR, comment: "later" };
      const headers = { "Idempotency-Key": `late-${seeded.key}` };
      const first = await client("VIEWER").create(request, { headers });
      await db()
        .update(waivers)
        .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(waivers.id, first.waiver?.entity?.id ?? ""));
      const second = await client("VIEWER").create(request, { headers });
      expect(second.waiver?.entity?.id).not.toBe(first.waiver?.entity?.id);
    });

    it("caps open waivers per deployment with WAIVER_LIMIT_EXCEEDED", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const deploymentId = seeded.deploymentIds[0] ?? "";
      await db()
        .insert(waivers)
        .values(
          Array.from({ length: 50 }, (_, i) => ({
            tenantId: server.defaultTenantId,
            deploymentId,
            policyKey: seeded.key,
            createSource: "FORM",
            requesterName: "Seed",
            requesterIdentifier: `seed-${i}@palisade.test`,
            comment: "seeded",
            durationSeconds: 3_600,
            scope: "111122223333",
            status: i % 2 === 0 ? "PENDING" : "ACTIVE",
            approvalType: "MANUAL",
          })),
        );
      const error = await errorOf(
        client("VIEWER").create({ key: seeded.key, duration: HOUR, comment: "51st" }),
      );
      expect(error.code).toBe(Code.FailedPrecondition);
      expect(error.findDetails(ErrorDetailSchema).map((d) => d.code)).toEqual([
        ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
      ]);
      // Closed waivers do not count.
      await client("ADMINISTRATOR").cancel({ target: { case: "policyKey", value: seeded.key } });
      const { waiver } = await client("VIEWER").create({
        key: seeded.key,
        duration: HOUR,
        comment: "room again",
      });
      expect(waiver?.status).toBe(WaiverStatus.PENDING);
    });
  });

  describe("recorded directly through DeploymentManagerService", () => {
    const manager = (credentials: Credentials) => server.client(DeploymentManagerService, credentials);
    const inHours = (hours: number) => timestampFromDate(new Date(Date.now() + hours * 3_600_000));

    it("holds the tenant's maximum duration, as a requested waiver does", async () => {
      const tenantId = await server.createTenant("Short direct waivers");
      await db().insert(tenantSettings).values({ tenantId, maxWaiverDurationHours: 4 });
      const admin = await server.addMember({ role: "ADMINISTRATOR", tenantId });
      const seeded = await seedBundle(server, { tenantId });
      const error = await errorOf(
        manager(admin.credentials).createWaiver({ key: seeded.key, expiresAt: inHours(5) }),
      );
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toBe("expires_at: at most 4 hours from now.");
      const { waiver } = await manager(admin.credentials).createWaiver({
        key: seeded.key,
        expiresAt: inHours(3),
      });
      expect(waiver?.policyKey).toBe(seeded.key);
    });

    it("caps open waivers per deployment with WAIVER_LIMIT_EXCEEDED, as a requested waiver does", async () => {
      const seeded = await seedBundle(server);
      await db()
        .insert(waivers)
        .values(
          Array.from({ length: 50 }, (_, i) => ({
            tenantId: server.defaultTenantId,
            deploymentId: seeded.deploymentIds[0] ?? "",
            policyKey: seeded.key,
            createSource: "FORM",
            requesterName: "Seed",
            requesterIdentifier: `seed-${i}@palisade.test`,
            comment: "seeded",
            durationSeconds: 3_600,
            status: "PENDING",
            approvalType: "MANUAL",
          })),
        );
      const error = await errorOf(
        manager(as.ADMINISTRATOR as Credentials).createWaiver({ key: seeded.key, expiresAt: inHours(1) }),
      );
      expect(error.code).toBe(Code.FailedPrecondition);
      expect(error.findDetails(ErrorDetailSchema).map((d) => d.code)).toEqual([
        ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
      ]);
      const rows = await db().select().from(waivers).where(eq(waivers.policyKey, seeded.key));
      expect(rows).toHaveLength(50);
    });

    it("refuses a target outside the bundle's scopes with WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE, as a requested waiver does", async () => {
      const seeded = await seedBundle(server, { scopes: ["111122223333"] });
      const record = (scope: string) =>
        manager(as.ADMINISTRATOR as Credentials).createWaiver({
          key: seeded.key,
          expiresAt: inHours(1),
          waiverRequest: {
            target: { case: "targetScope", value: { externalId: scope } },
            requester: { name: "Alice", identifier: "alice@example.com", comment: "incident 42" },
          },
        });
      const error = await errorOf(record("444455556666"));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.findDetails(ErrorDetailSchema).map((d) => d.code)).toEqual([
        ProductErrorCode.WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE,
      ]);
      expect(error.rawMessage).toBe(
        `Account 444455556666 is not within any scope policy ${seeded.key} is deployed to.`,
      );
      expect(await db().select().from(waivers).where(eq(waivers.policyKey, seeded.key))).toEqual([]);

      const { waiver } = await record("111122223333");
      const stored = await db().select().from(waivers).where(eq(waivers.policyKey, seeded.key));
      expect(stored.map((w) => [w.id, w.scope, w.status])).toEqual([
        [waiver?.entity?.id, "111122223333", "ACTIVE"],
      ]);
    });

    it("queues the expiry sweep for the moment the waiver ends", async () => {
      const seeded = await seedBundle(server);
      const expiresAt = inHours(2);
      const sent = vi.spyOn(server.palisade.jobs, "send");
      try {
        const { waiver } = await manager(as.ADMINISTRATOR as Credentials).createWaiver({
          key: seeded.key,
          expiresAt,
        });
        expect(waiver?.expiresAt).toEqual(expiresAt);
        expect(sent).toHaveBeenCalledWith(WAIVER_EXPIRY_JOB, {}, { startAfter: timestampDate(expiresAt) });
      } finally {
        sent.mockRestore();
      }
    });
  });

  describe("permissions", () => {
    it("lets a VISITOR request but not list", async () => {
      const seeded = await seedBundle(server);
      const { waiver } = await client("VISITOR").create({
        key: seeded.key,
        duration: HOUR,
        comment: "visitor",
      });
      expect(waiver?.entity?.id).toBeDefined();
      const error = await errorOf(client("VISITOR").list({ filter: { key: seeded.key } }));
      expect(error.code).toBe(Code.PermissionDenied);
      expect(error.rawMessage).toContain("WAIVERS_READ");
    });

    it("refuses a request on a key of a tenant the caller is not a member of, and says why", async () => {
      const seeded = await seedBundle(server);
      const error = await errorOf(
        client("OTHER_EDITOR").create({ key: seeded.key, duration: HOUR, comment: "not mine" }),
      );
      expect(error.code).toBe(Code.PermissionDenied);
      expect(error.rawMessage).toContain("belongs to a tenant you are not a member of");
      const apiKey = await server.createApiKey({ tenantId: otherTenantId, role: "EDITOR" });
      const byKey = await errorOf(
        server
          .client(WaiverService, { kind: "bearer", token: apiKey })
          .create({ key: seeded.key, duration: HOUR, comment: "not mine" }),
      );
      expect(byKey.code).toBe(Code.PermissionDenied);
      expect(byKey.rawMessage).toContain("belongs to another tenant");
    });

    it("uses the key's tenant, not the caller's active one, for a member of both", async () => {
      const seeded = await seedBundle(server);
      const person = await server.addMember({
        role: "VIEWER",
        tenantId: otherTenantId,
        name: "Both Tenants",
      });
      await db().insert(member).values({
        id: crypto.randomUUID(),
        organizationId: server.defaultTenantId,
        userId: person.userId,
        role: "VISITOR",
      });
      const { waiver } = await server
        .client(WaiverService, person.credentials)
        .create({ key: seeded.key, duration: HOUR, comment: "from the other tenant" });
      const row = await stored(waiver?.entity?.id);
      expect(row.tenantId).toBe(server.defaultTenantId);
      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, row.id), eq(auditLog.action, "WaiverService.Create")));
      expect(audit?.tenantId).toBe(server.defaultTenantId);
      // The caller's active tenant does not see it.
      const error = await errorOf(
        server.client(WaiverService, person.credentials).list({ filter: { key: seeded.key } }),
      );
      expect(error.code).toBe(Code.NotFound);
    });

    it("answers NotFound for another tenant's key or waiver on List, Cancel and Update", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const { waiver } = await client("VIEWER").create({ key: seeded.key, duration: HOUR, comment: "ours" });
      const id = waiver?.entity?.id ?? "";
      const other = (name: string) => server.client(WaiverService, as[name]);
      const calls = [
        () => other("OTHER_ADMIN").list({ filter: { key: seeded.key } }),
        () => other("OTHER_ADMIN").listCreators({ filter: { key: seeded.key } }),
        () => other("OTHER_ADMIN").cancel({ target: { case: "id", value: id } }),
        () => other("OTHER_ADMIN").cancel({ target: { case: "policyKey", value: seeded.key } }),
        () => other("OTHER_ADMIN").update({ id, status: WaiverStatus.ACTIVE }),
      ];
      for (const call of calls) expect((await errorOf(call())).code).toBe(Code.NotFound);
      expect((await stored(id)).status).toBe("PENDING");
      const summary = await other("OTHER_ADMIN").summary({ filter: { keys: [seeded.key] } });
      expect(summary.total).toBe(0);
    });

    it("leaves approval to WAIVERS_UPDATE and cancelling to WAIVERS_WRITE", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const { waiver } = await client("VIEWER").create({
        key: seeded.key,
        duration: HOUR,
        comment: "approve me",
      });
      const id = waiver?.entity?.id ?? "";
      for (const role of ["VISITOR", "VIEWER", "INTEGRATOR"]) {
        expect((await errorOf(client(role).update({ id, status: WaiverStatus.ACTIVE }))).code).toBe(
          Code.PermissionDenied,
        );
      }
      for (const role of ["VISITOR", "VIEWER", "MODERATOR", "INTEGRATOR"]) {
        expect((await errorOf(client(role).cancel({ target: { case: "id", value: id } }))).code).toBe(
          Code.PermissionDenied,
        );
      }
      expect((await stored(id)).status).toBe("PENDING");
    });
  });

  describe("lifecycle", () => {
    async function pending() {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const { waiver } = await client("VIEWER").create({
        key: seeded.key,
        duration: 3n * HOUR,
        comment: "please",
      });
      return waiver?.entity?.id ?? "";
    }

    async function expireNow(id: string) {
      await db()
        .update(waivers)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(waivers.id, id));
      await server.palisade.jobs.send(WAIVER_EXPIRY_JOB, {});
      await waitFor(
        "the waiver to be EXPIRED",
        () => stored(id),
        (row) => row.status === "EXPIRED",
        20_000,
      );
    }

    it("pending -> active: a moderator approves; reviewer, review time and expiry are recorded", async () => {
      const id = await pending();
      const { waiver } = await client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE });
      expectHonestStatus(waiver);
      expect(waiver?.reviewer).toMatchObject({
        name: "moderator person",
        identifier: `moderator-${engine}@palisade.test`,
      });
      const reviewedAt = Number(waiver?.reviewedAt?.seconds);
      expect(Math.abs(reviewedAt * 1000 - Date.now())).toBeLessThan(10_000);
      expect(Number(waiver?.expiresAt?.seconds)).toBeGreaterThanOrEqual(reviewedAt + 3 * 3_600 - 1);
      expect((await stored(id)).status).toBe("ACTIVE");
      const audits = await db().select().from(auditLog).where(eq(auditLog.targetId, id));
      expect(audits.map((a) => a.action).sort()).toEqual(["WaiverService.Create", "WaiverService.Update"]);
    });

    it("separation of duties: the requester cannot decide on their own waiver unless the tenant allows it", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const own = async () =>
        (await client("MODERATOR").create({ key: seeded.key, duration: HOUR, comment: "mine" })).waiver
          ?.entity?.id ?? "";
      const tenant = server.client(TenantService, as.ADMINISTRATOR);
      expect((await tenant.getCurrent({})).tenant?.settings?.requireSeparateApprover).toBe(true);
      const id = await own();
      for (const status of [WaiverStatus.ACTIVE, WaiverStatus.REJECTED]) {
        const error = await errorOf(client("MODERATOR").update({ id, status }));
        expect(error.code).toBe(Code.PermissionDenied);
        expect(error.rawMessage).toBe(
          "You requested this waiver, so you cannot approve or reject it: someone else with the WAIVERS_UPDATE permission must decide.",
        );
      }
      expect((await stored(id)).status).toBe("PENDING");
      await client("EDITOR").update({ id, status: WaiverStatus.ACTIVE });
      expect((await stored(id)).status).toBe("ACTIVE");

      const settings = { maxWaiverDurationHours: 72, defaultWaiverApprovalMode: WaiverApprovalMode.AUTO };
      try {
        await tenant.updateSettings({ settings: { ...settings, requireSeparateApprover: false } });
        expect((await tenant.getCurrent({})).tenant?.settings?.requireSeparateApprover).toBe(false);
        // Left out of the request, the setting keeps its value.
        await tenant.updateSettings({ settings });
        expect((await tenant.getCurrent({})).tenant?.settings?.requireSeparateApprover).toBe(false);
        const second = await own();
        await client("MODERATOR").update({ id: second, status: WaiverStatus.REJECTED });
        expect((await stored(second)).status).toBe("REJECTED");
      } finally {
        await tenant.updateSettings({ settings: { ...settings, requireSeparateApprover: true } });
      }
      expect((await tenant.getCurrent({})).tenant?.settings?.requireSeparateApprover).toBe(true);
    });

    it("GetOwn: the requester follows their waiver until it is decided; nobody else reads it", async () => {
      const id = await pending();
      const own = await client("VIEWER").getOwn({ id });
      expect(own.waiver?.status).toBe(WaiverStatus.PENDING);
      expect(own.tenantName).toBeTruthy();
      for (const who of ["VISITOR", "MODERATOR", "OTHER_EDITOR"]) {
        expect((await errorOf(client(who).getOwn({ id }))).code).toBe(Code.NotFound);
      }
      await client("MODERATOR").update({ id, status: WaiverStatus.REJECTED });
      expect((await client("VIEWER").getOwn({ id })).waiver?.status).toBe(WaiverStatus.REJECTED);
    });

    it("pending -> rejected, and rejected is final", async () => {
      const id = await pending();
      const { waiver } = await client("MODERATOR").update({ id, status: WaiverStatus.REJECTED });
      expect(waiver?.status).toBe(WaiverStatus.REJECTED);
      expect(waiver?.reviewer?.name).toBe("moderator person");
      for (const call of [
        () => client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE }),
        () => client("MODERATOR").update({ id, status: WaiverStatus.REJECTED }),
        () => client("EDITOR").cancel({ target: { case: "id", value: id } }),
      ]) {
        const error = await errorOf(call());
        expect(error.code).toBe(Code.FailedPrecondition);
        expect(error.rawMessage).toMatch(/from REJECTED to (ACTIVE|REJECTED|CANCELLED)/);
      }
    });

    it("pending -> cancelled, and cancelled is final", async () => {
      const id = await pending();
      const { waivers: cancelled } = await client("EDITOR").cancel({ target: { case: "id", value: id } });
      expect(cancelled.map((w) => [w.entity?.id, w.status])).toEqual([[id, WaiverStatus.CANCELLED]]);
      const approve = await errorOf(client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE }));
      expect(approve.code).toBe(Code.FailedPrecondition);
      expect(approve.rawMessage).toContain("from CANCELLED to ACTIVE");
      const again = await errorOf(client("EDITOR").cancel({ target: { case: "id", value: id } }));
      expect(again.rawMessage).toContain("from CANCELLED to CANCELLED");
    });

    it("active -> cancelled; an active waiver cannot be approved again or rejected", async () => {
      const id = await pending();
      await client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE });
      for (const [status, name] of [
        [WaiverStatus.ACTIVE, "ACTIVE"],
        [WaiverStatus.REJECTED, "REJECTED"],
      ] as const) {
        const error = await errorOf(client("MODERATOR").update({ id, status }));
        expect(error.code).toBe(Code.FailedPrecondition);
        expect(error.rawMessage).toContain(`from ACTIVE to ${name}`);
      }
      const { waivers: cancelled } = await client("EDITOR").cancel({ target: { case: "id", value: id } });
      expect(cancelled[0]?.status).toBe(WaiverStatus.CANCELLED);
    });

    it("active -> expired by the expiry job, and expired is final", async () => {
      const id = await pending();
      await client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE });
      await expireNow(id);
      const cancel = await errorOf(client("EDITOR").cancel({ target: { case: "id", value: id } }));
      expect(cancel.code).toBe(Code.FailedPrecondition);
      expect(cancel.rawMessage).toContain("from EXPIRED to CANCELLED");
      const approve = await errorOf(client("MODERATOR").update({ id, status: WaiverStatus.ACTIVE }));
      expect(approve.rawMessage).toContain("from EXPIRED to ACTIVE");
      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "WaiverService.Expire")));
      expect(audit?.actorType).toBe("system");
    });

    it("never expires a pending waiver", async () => {
      const id = await pending();
      await db()
        .update(waivers)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(waivers.id, id));
      const other = await pending();
      await client("MODERATOR").update({ id: other, status: WaiverStatus.ACTIVE });
      await expireNow(other);
      expect((await stored(id)).status).toBe("PENDING");
    });

    it("refuses Update to anything but ACTIVE or REJECTED", async () => {
      const id = await pending();
      for (const status of [
        WaiverStatus.CANCELLED,
        WaiverStatus.EXPIRED,
        WaiverStatus.PENDING,
        WaiverStatus.UNSPECIFIED,
      ]) {
        const error = await errorOf(client("MODERATOR").update({ id, status }));
        expect(error.code).toBe(Code.InvalidArgument);
      }
    });

    it("cancels every open waiver of a key, and only those", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const ids: string[] = [];
      for (const comment of ["one", "two", "three"]) {
        const { waiver } = await client("VIEWER").create({ key: seeded.key, duration: HOUR, comment });
        ids.push(waiver?.entity?.id ?? "");
      }
      await client("MODERATOR").update({ id: ids[0], status: WaiverStatus.ACTIVE });
      await client("MODERATOR").update({ id: ids[1], status: WaiverStatus.REJECTED });
      const { waivers: cancelled } = await client("EDITOR").cancel({
        target: { case: "policyKey", value: seeded.key.toLowerCase() },
      });
      expect(cancelled.map((w) => w.entity?.id).sort()).toEqual([ids[0], ids[2]].sort());
      expect(cancelled.every((w) => w.status === WaiverStatus.CANCELLED)).toBe(true);
      expect((await stored(ids[1])).status).toBe("REJECTED");
    });

    it("records when a waiver was cancelled, on every path, and keeps its expiry", async () => {
      const seeded = await seedBundle(server, { approval: "MANUAL" });
      const create = async (key: string) =>
        (await client("VIEWER").create({ key, duration: HOUR, comment: "cancel me" })).waiver?.entity?.id ??
        "";
      const byId = await create(seeded.key);
      const byKey = await create(seeded.key);
      await client("MODERATOR").update({ id: byId, status: WaiverStatus.ACTIVE });
      const expiresAt = (await stored(byId)).expiresAt;
      const expectBetween = (at: Date | null | undefined, from: number, to: number) => {
        expect(at?.getTime()).toBeGreaterThanOrEqual(from);
        expect(at?.getTime()).toBeLessThanOrEqual(to);
      };

      // By id (the Waivers tab's Cancel, and deleting a waiver).
      let from = Date.now();
      const { waivers: one } = await client("EDITOR").cancel({ target: { case: "id", value: byId } });
      expectBetween(one[0]?.cancelledAt && timestampDate(one[0].cancelledAt), from, Date.now());
      expect(one[0]?.expiresAt && timestampDate(one[0].expiresAt)).toEqual(expiresAt);
      const cancelledById = (await stored(byId)).cancelledAt;

      // Every open waiver of a key; the one already cancelled keeps its time.
      from = Date.now();
      const { waivers: ofKey } = await client("EDITOR").cancel({
        target: { case: "policyKey", value: seeded.key },
      });
      expect(ofKey.map((w) => w.entity?.id)).toEqual([byKey]);
      expectBetween(ofKey[0]?.cancelledAt && timestampDate(ofKey[0].cancelledAt), from, Date.now());
      expect((await stored(byId)).cancelledAt).toEqual(cancelledById);

      // With its policy's deployment: the bundle goes away, its open waivers end.
      const other = await seedBundle(server, { approval: "MANUAL" });
      const withBundle = await create(other.key);
      from = Date.now();
      await cancelWaiversOfBundle(db(), server.defaultTenantId, other.bundleId);
      const row = await stored(withBundle);
      expect(row.status).toBe("CANCELLED");
      expectBetween(row.cancelledAt, from, Date.now());

      // Read back as the Waivers tab lists them: the time travels with the waiver.
      const { items: listed } = await client("VIEWER").list({
        filter: { key: seeded.key, status: [WaiverStatus.CANCELLED] },
      });
      const times = (dates: (Date | null | undefined)[]) => dates.map((d) => d?.getTime()).sort();
      expect(times(listed.map((w) => w.cancelledAt && timestampDate(w.cancelledAt)))).toEqual(
        times([cancelledById, (await stored(byKey)).cancelledAt]),
      );
    });
  });

  describe("reading", () => {
    let seeded: Seeded;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      seeded = await seedBundle(server, { approval: "MANUAL" });
      const make = async (who: string, comment: string) => {
        const { waiver } = await client(who).create({ key: seeded.key, duration: HOUR, comment });
        ids[comment] = waiver?.entity?.id ?? "";
        // Distinct creation times make the order observable.
        await new Promise((resolve) => setTimeout(resolve, 15));
      };
      await make("VIEWER", "Rotate 100% of keys");
      await make("EDITOR", "deploy hotfix");
      await make("VISITOR", "load test");
      await make("VIEWER", "migrate bucket");
      await client("MODERATOR").update({ id: ids["deploy hotfix"] ?? "", status: WaiverStatus.REJECTED });
      await client("EDITOR").cancel({ target: { case: "id", value: ids["load test"] ?? "" } });
      await client("MODERATOR").update({ id: ids["migrate bucket"] ?? "", status: WaiverStatus.ACTIVE });
    });

    it("lists newest first by default, 1-based pages, with totals", async () => {
      const first = await client("VIEWER").list({
        filter: { key: seeded.key },
        pagination: { limit: 3 },
      });
      expect(first.items.map((w) => w.requester?.comment)).toEqual([
        "migrate bucket",
        "load test",
        "deploy hotfix",
      ]);
      expect(first.pagination?.totalItems).toBe(4);
      expect(first.pagination?.position).toEqual({ case: "totalPages", value: 2 });
      const second = await client("VIEWER").list({
        filter: { key: seeded.key },
        pagination: { limit: 3, position: { case: "page", value: 2 } },
      });
      expect(second.items.map((w) => w.requester?.comment)).toEqual(["Rotate 100% of keys"]);
      const ascending = await client("VIEWER").list({
        filter: { key: seeded.key },
        pagination: { order: Order.ASCENDING },
      });
      expect(ascending.items[0]?.requester?.comment).toBe("Rotate 100% of keys");
      for (const item of first.items) expectHonestStatus(item);
    });

    it("filters by status, requester and comment", async () => {
      const byStatus = await client("VIEWER").list({
        filter: { key: seeded.key, status: [WaiverStatus.REJECTED, WaiverStatus.CANCELLED] },
      });
      expect(byStatus.items.map((w) => w.requester?.comment).sort()).toEqual(["deploy hotfix", "load test"]);
      const byRequester = await client("VIEWER").list({
        filter: { key: seeded.key, requestedBy: [`viewer-${engine}@palisade.test`] },
      });
      expect(byRequester.items.map((w) => w.requester?.comment).sort()).toEqual([
        "Rotate 100% of keys",
        "migrate bucket",
      ]);
      const byComment = await client("VIEWER").list({ filter: { key: seeded.key, comment: "100%" } });
      expect(byComment.items.map((w) => w.requester?.comment)).toEqual(["Rotate 100% of keys"]);
      const underscore = await client("VIEWER").list({ filter: { key: seeded.key, comment: "_" } });
      expect(underscore.items).toHaveLength(0);
    });

    it("orders by status", async () => {
      const { items } = await client("VIEWER").list({
        filter: { key: seeded.key },
        orderBy: ListOrderBy.STATUS,
        pagination: { order: Order.ASCENDING },
      });
      const names = items.map((w) => WaiverStatus[w.status]);
      expect(names).toEqual([...names].sort());
    });

    it("lists the creators of a key's waivers", async () => {
      const { creators } = await client("INTEGRATOR").listCreators({ filter: { key: seeded.key } });
      expect(creators.map((c) => c.identifier).sort()).toEqual(
        [
          `editor-${engine}@palisade.test`,
          `viewer-${engine}@palisade.test`,
          `visitor-${engine}@palisade.test`,
        ].sort(),
      );
      expect(creators.find((c) => c.identifier.startsWith("editor"))?.name).toBe("editor person");
    });

    it("summarises the counts of a list of keys", async () => {
      const summary = await client("VIEWER").summary({ filter: { keys: [seeded.key] } });
      // The approved waiver never reached a cloud (the bundle has no connector): it is pending.
      expect(summary).toMatchObject({
        total: 4,
        active: 0,
        pending: 2,
        rejected: 1,
        cancelled: 1,
        expired: 0,
      });
      const all = await client("VIEWER").summary({});
      expect(all.total).toBeGreaterThan(summary.total);
    });

    it("reports an approved waiver ACTIVE once the cloud has it, and FAILED with the cloud's reason", async () => {
      const id = ids["migrate bucket"] ?? "";
      await db().update(waivers).set({ deploymentStatus: "ACTIVE" }).where(eq(waivers.id, id));
      let summary = await client("VIEWER").summary({ filter: { keys: [seeded.key] } });
      expect(summary).toMatchObject({ active: 1, pending: 1 });
      const active = await client("VIEWER").list({
        filter: { key: seeded.key, status: [WaiverStatus.ACTIVE] },
      });
      expect(active.items.map((w) => w.entity?.id)).toEqual([id]);
      await db()
        .update(waivers)
        .set({ deploymentStatus: "FAILED", errorCode: "EXEMPTIONS_LIMIT_EXCEEDED" })
        .where(eq(waivers.id, id));
      summary = await client("VIEWER").summary({ filter: { keys: [seeded.key] } });
      expect(summary).toMatchObject({ active: 0, pending: 2 });
      const failed = await client("VIEWER").list({
        filter: { key: seeded.key, status: [WaiverStatus.PENDING] },
      });
      const item = failed.items.find((w) => w.entity?.id === id);
      expect(item?.status).toBe(WaiverStatus.PENDING);
      expect(item?.deploymentStatus).toBe(WaiverDeploymentStatus.FAILED);
      expect(item?.errorCode).toBe(ProductErrorCode.EXEMPTIONS_LIMIT_EXCEEDED);
    });
  });
});

describe.each(engines)("waiver expiry across a restart on %s", (engine: Engine) => {
  it("expires at the next start a waiver that fell due while the server was down", async () => {
    const database = await createTestDatabase(engine);
    const env = {
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    };
    let server = await startTestServer(engine, env);
    try {
      const requester = await server.addMember({ role: "VIEWER" });
      const seeded = await seedBundle(server);
      const { waiver } = await server
        .client(WaiverService, requester.credentials)
        .create({ key: seeded.key, duration: HOUR, comment: "shortest waiver" });
      const id = waiver?.entity?.id ?? "";
      await server.stop();
      // While the server is down the waiver falls due.
      const offline = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      await offline.db
        .update(waivers)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(waivers.id, id));
      expect((await offline.db.select().from(waivers).where(eq(waivers.id, id)))[0]?.status).toBe("ACTIVE");
      await offline.close();
      server = await startTestServer(engine, env);
      const client = server.client(WaiverService, requester.credentials);
      const expired = await waitFor(
        "the waiver to be listed EXPIRED",
        () => client.list({ filter: { key: seeded.key } }),
        (r) => r.items[0]?.status === WaiverStatus.EXPIRED,
        20_000,
      );
      expect(expired.items.map((w) => w.entity?.id)).toEqual([id]);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 240_000);
});

describe.each(engines)("the waiver loop with the sandbox cloud on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let requester: Credentials;

  beforeAll(async () => {
    ({
      server,
      members: { admin, requester },
    } = await startSandboxServer({
      engine,
      members: { admin: "ADMINISTRATOR", requester: { role: "VISITOR", name: "Alice Engineer" } },
      scopes: false,
    }));
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function tryAs(account: string): Promise<number> {
    const sandbox = server.palisade.cloud.sandbox;
    if (!sandbox) throw new Error("the sandbox cloud is not running");
    const response = await fetch(`${sandbox.url}/sandbox/try`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        provider: "aws",
        principal: "user/alice",
        account,
        action: "s3:PutAccountPublicAccessBlock",
        resource: "*",
      }),
    });
    await response.body?.cancel();
    return response.status;
  }

  it("denies, lets through once the waiver is in the cloud, and denies again after expiry", async () => {
    const connectors = server.client(ConnectorService, admin);
    const aws = await waitFor(
      "the AWS connector to be connected",
      async () => (await connectors.listConnectors({})).items.find((c) => c.provider === CloudProvider.AWS),
      (c) => c?.status === ConnectorStatus.CONNECTED,
      60_000,
    );
    const { roots } = await connectors.listHierarchy({ provider: CloudProvider.AWS });
    const nodes = flatten(roots);
    const ou = nodes.find((n) => n.name === "Workloads-Prod");
    const account = flatten(ou ? [ou] : []).find((n) => n.type === ScopeType.AWS_ACCOUNT);
    if (!ou || !account || !aws) throw new Error("the sandbox hierarchy has no Workloads-Prod account");

    const deploymentsClient = server.client(DeploymentManagerService, admin);
    const { bundle } = await deploymentsClient.createBundle({
      name: "Account Block Public Access",
      policySlug: "protect-s3-account-public-access-block",
      scopes: [{ provider: CloudProvider.AWS, externalId: ou.externalId, connectorId: aws.entity?.id ?? "" }],
      mode: DeploymentMode.PREVENT,
      isVisible: true,
      waiverSettings: { approvalMode: WaiverApprovalMode.AUTO },
    });
    const key = bundle?.key ?? "";
    await expectDeployed(server.palisade.database.db, bundle?.entity?.id ?? "");
    expect(await tryAs(account.externalId)).toBe(403);

    const waivers = server.client(WaiverService, requester);
    const { waiver } = await waivers.create(
      {
        key: key.toLowerCase(),
        duration: HOUR,
        comment: "rotating the account baseline",
        target: { case: "scopeExternalId", value: account.externalId },
      },
      { headers: { "Idempotency-Key": "loop-1" } },
    );
    expectHonestStatus(waiver);
    expect(waiver?.scope).toBe(`Account ${account.externalId}`);
    // The account by the name the synced hierarchy gives it, for people to read instead of its id.
    expect(waiver?.scopeName).toBe(account.name);

    // Whenever the service says ACTIVE, the cloud lets the action through.
    const reader = server.client(WaiverService, admin);
    const active = await waitFor(
      "the waiver to be ACTIVE",
      async () => (await reader.list({ filter: { key } })).items[0],
      (w) => w?.status === WaiverStatus.ACTIVE,
      20_000,
    );
    expect(active?.deploymentStatus).toBe(WaiverDeploymentStatus.ACTIVE);
    expect(await tryAs(account.externalId)).toBe(200);
    // Another account of the OU is still denied: the waiver names one account.
    const sibling = flatten([ou]).find(
      (n) => n.type === ScopeType.AWS_ACCOUNT && n.externalId !== account.externalId,
    );
    if (sibling) expect(await tryAs(sibling.externalId)).toBe(403);

    // The cloud itself stops honouring the waiver at its expiry, whatever Palisade does. On AWS
    // the waiver ends on the hour after its hour is up.
    const expiresAt = timestampDate(active!.expiresAt!);
    expect(expiresAt.getUTCMinutes() * 60 + expiresAt.getUTCSeconds()).toBe(0);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(3_600_000 - 60_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    const sandbox = server.palisade.cloud.sandbox;
    await fetch(`${sandbox?.url}/sandbox/control/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advanceSeconds: Math.ceil((expiresAt.getTime() - Date.now()) / 1_000) + 60 }),
    });
    expect(await tryAs(account.externalId)).toBe(403);
  }, 120_000);
});
