import { Code, type ConnectError } from "@connectrpc/connect";
import { parseAuditExport, verifyAuditChain } from "@palisade/api/audit-chain";
import { AuditService, ExportStatus } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditRetentionWorker } from "../src/jobs/retention-job";
import { createLogger } from "../src/logger";
import { recordSystemAudit } from "../src/modules/audit/audit-log";
import {
  chainRecordOf,
  deleteAuditRecordsBefore,
  sealUnchainedAuditRecords,
} from "../src/modules/audit/audit-repository";
import { auditLog } from "../src/modules/audit/audit-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { listAuditRetentions } from "../src/modules/tenant/tenant-repository";
import { errorOf } from "./support/call-error";
import { waitFor } from "./support/poll";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const DAY_MS = 86_400_000;

describe.each(engines)(
  "audit records on %s: one hash chain per tenant, written with the change",
  (engine) => {
    let server: TestServer;
    let admin: Credentials;
    let viewer: { memberId: string; credentials: Credentials };
    let tenantId: string;
    const db = () => server.palisade.database.db;

    beforeAll(async () => {
      server = await startTestServer(engine);
      tenantId = server.defaultTenantId;
      admin = (await server.addMember({ role: "ADMINISTRATOR", name: "Chain Admin" })).credentials;
      viewer = await server.addMember({ role: "VIEWER", name: "Vic Viewer", email: "vic@chain.test" });
      const team = server.client(TeamService, admin);
      for (const role of [Role.EDITOR, Role.MODERATOR, Role.VIEWER, Role.EDITOR]) {
        await team.changeRole({ memberId: viewer.memberId, role });
      }
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    /** The tenant's records as `palisade audit verify` reads them: a JSON Lines export, downloaded. */
    async function exported() {
      const audit = server.client(AuditService, admin);
      const { jobId, presignedUrl } = await audit.exportAsync({ format: ExportFormat.JSON_LINES });
      await waitFor("the audit export", async () => {
        const status = await audit.getExportStatus({ jobId });
        return status.status === ExportStatus.SUCCEEDED;
      });
      const response = await fetch(presignedUrl.replace(/^https?:\/\/[^/]+/, server.url));
      expect(response.headers.get("content-type")).toContain("application/x-ndjson");
      return parseAuditExport(await response.text());
    }

    /** Runs call while the database refuses every audit record, as a failing audit store would. */
    async function refusingAuditRecords<T>(call: () => Promise<T>): Promise<T> {
      await db().execute(sql`create or replace function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit store refused'; end $$`);
      await db().execute(sql`create trigger refuse_audit before insert on audit_log for each row
      execute function refuse_audit()`);
      try {
        return await call();
      } finally {
        await db().execute(sql`drop trigger refuse_audit on audit_log`);
      }
    }

    async function roleChanges() {
      return db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, "TeamService.ChangeRole")))
        .orderBy(asc(auditLog.sequence));
    }

    it("lists the changes with who made them and what changed, newest first", async () => {
      const { items } = await server.client(AuditService, admin).list({ filter: { action: "ChangeRole" } });
      expect(items).toHaveLength(4);
      expect(items[0]?.actor?.name).toBe("Chain Admin");
      expect(items[0]?.target).toMatchObject({ type: "member", id: viewer.memberId, name: "vic@chain.test" });
      const denied = await errorOf(server.client(AuditService, viewer.credentials).list({}));
      expect(denied.rawMessage).toContain("AUDIT_READ");
    });

    it("verifies an intact export", async () => {
      const records = await exported();
      expect(records.length).toBeGreaterThanOrEqual(4);
      expect(verifyAuditChain(records)).toEqual({ ok: true, records: records.length });
    });

    it("a change whose transaction fails leaves no record, and the change is undone with it", async () => {
      const before = (await roleChanges()).length;
      // The record cannot be written: the change it records must not stay either.
      await refusingAuditRecords(() =>
        errorOf(
          server
            .client(TeamService, admin)
            .changeRole({ memberId: viewer.memberId, role: Role.ADMINISTRATOR }),
        ),
      );
      expect((await roleChanges()).length).toBe(before);
      const [row] = await db().select().from(member).where(eq(member.id, viewer.memberId));
      expect(row?.role).toBe("EDITOR");
    });

    it("a new API key whose record cannot be written is refused and deleted: not listed, it cannot authenticate", async () => {
      const team = server.client(TeamService, admin);
      // The sign-in library stores the key before the record is written; its secret, which the
      // refused call shows no one, is read here to try it.
      const made = vi.spyOn(server.palisade.auth.api, "createApiKey");
      let refused: ConnectError;
      let key: string | undefined;
      try {
        refused = await refusingAuditRecords(() =>
          errorOf(team.createApiKey({ name: "Unrecorded CI", role: Role.VIEWER })),
        );
        key = (await made.mock.results[0]?.value)?.key;
      } finally {
        made.mockRestore();
      }
      expect(refused.code).toBe(Code.Internal);
      expect(key).toMatch(/^pal_/);
      expect((await team.listApiKeys({})).items.filter((k) => k.name === "Unrecorded CI")).toEqual([]);
      const asKey = server.client(TenantService, { kind: "bearer", token: key ?? "" });
      expect((await errorOf(asKey.getCurrent({}))).code).toBe(Code.Unauthenticated);
    });

    it("an edited record fails verification at that record", async () => {
      const [, second] = await roleChanges();
      await db()
        .update(auditLog)
        .set({ after: { role: "ADMINISTRATOR" } })
        .where(eq(auditLog.id, second?.id ?? ""));
      const verdict = verifyAuditChain(await exported());
      expect(verdict).toMatchObject({ ok: false, id: second?.id });
      if (!verdict.ok) expect(verdict.reason).toContain("edited");
      // Put back as it was, the chain holds again.
      await db()
        .update(auditLog)
        .set({ after: second?.after })
        .where(eq(auditLog.id, second?.id ?? ""));
      expect(verifyAuditChain(await exported()).ok).toBe(true);
    });

    it("a deleted record fails verification at the record after it", async () => {
      const [, , third, fourth] = await roleChanges();
      await db()
        .delete(auditLog)
        .where(eq(auditLog.id, third?.id ?? ""));
      const verdict = verifyAuditChain(await exported());
      expect(verdict).toMatchObject({ ok: false, id: fourth?.id });
      await db()
        .insert(auditLog)
        .values(third as typeof auditLog.$inferInsert);
      expect(verifyAuditChain(await exported()).ok).toBe(true);
    });

    it("retention deletes the oldest records per tenant; the rest still verify", async () => {
      await server
        .client(TenantService, admin)
        .updateSettings({ settings: { ...(await currentSettings()), auditRetentionDays: 30 } });
      expect(await listAuditRetentions(db())).toContainEqual({ tenantId, days: 30 });
      const rows = await roleChanges();
      // As if the first two changes were made 31 days before the job runs.
      const now = new Date((rows[2]?.createdAt.getTime() ?? 0) + 30 * DAY_MS + 1);
      const worker = auditRetentionWorker({
        listRetentions: async () => (await listAuditRetentions(db())).filter((r) => r.tenantId === tenantId),
        purge: (tenant, cutoff) => deleteAuditRecordsBefore(db(), tenant, cutoff),
        logger: createLogger("silent"),
        now: () => now,
      });
      await worker.handler({ id: "audit-retention", data: {}, retryCount: 0 } as never);
      const kept = await exported();
      expect(kept[0]?.sequence).toBeGreaterThan(1);
      expect(kept.some((r) => r.id === rows[0]?.id)).toBe(false);
      expect(verifyAuditChain(kept).ok).toBe(true);
    });

    it("records written before the chain existed are sealed into it, and new ones follow them", async () => {
      const older = await server.createTenant(`Older ${engine}`);
      const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
      // As migration 0032 leaves them: numbered in the order written, hashes empty.
      await db()
        .insert(auditLog)
        .values(
          [1, 2, 3].map((sequence) => ({
            tenantId: older,
            sequence,
            actorType: "user",
            actorName: "Earlier Admin",
            action: "TeamService.ChangeRole",
            targetType: "member",
            targetId: `m${sequence}`,
            after: { role: "EDITOR" },
            createdAt: at(sequence),
            previousHash: "",
            hash: "",
          })),
        );
      expect(await sealUnchainedAuditRecords(db())).toBe(1);
      await db().transaction((tx) =>
        recordSystemAudit(tx, older, "WaiverService.Expire", { target: { type: "waiver", id: "w1" } }),
      );
      const rows = await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.tenantId, older))
        .orderBy(asc(auditLog.sequence));
      expect(rows.map((r) => r.sequence)).toEqual([1, 2, 3, 4]);
      expect(verifyAuditChain(rows.map(chainRecordOf))).toEqual({ ok: true, records: 4 });
    });

    async function currentSettings() {
      const { tenant } = await server.client(TenantService, admin).getCurrent({});
      if (!tenant?.settings) throw new Error("no settings");
      return tenant.settings;
    }
  },
);
