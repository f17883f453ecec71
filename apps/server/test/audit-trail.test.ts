import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { DescMethod } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { AuditService } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { CloudProvider, ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import {
  type PolicyDefinition,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { SsoProtocol, SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { allServices } from "@palisade/api/services";
import { and, eq, gt } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { auditLog } from "../src/modules/audit/audit-schema";
import { policyEvents, resourceEvents } from "../src/modules/event/event-schema";
import { definitionMessage } from "../src/modules/policy-definition/definition-message";
import { loadCatalogue } from "../src/modules/policy-definition/load-catalogue";
import { node } from "./support/deployment-helpers";
import { outboxInvitationToken } from "./support/invitation-link";
import { type SamlTestIdp, startSamlTestIdp } from "./support/saml-test-idp";
import { ADMIN_AND_REQUESTER, startSandboxServer } from "./support/sandbox-server";
import type { Credentials, TestServer } from "./support/test-server";

const { catalogue } = loadCatalogue();

/** A catalogue definition as a client would send it, under another slug. */
function submitted(slug: string): PolicyDefinition {
  const source = catalogue.bySlug.get("deny-regions-outside-allowlist");
  if (!source) throw new Error("the catalogue has no deny-regions-outside-allowlist");
  return definitionMessage(
    { ...source, slug, display_name: `Custom ${slug}` },
    { state: PolicyDefinitionState.UNSPECIFIED },
  );
}

const nameOf = (method: DescMethod) => `${method.parent.name}.${method.name}`;

/** What the contract says changes something: every method not declared free of side effects. */
const mutating = allServices
  .flatMap((service) => service.methods)
  .filter((method) => method.idempotency !== MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS)
  .map(nameOf)
  .sort();

interface Expected {
  /** Who the record names: the admin unless said. */
  actorId?: string | null;
  targetType: string;
  targetId?: string;
  /** Records the call leaves; one unless said. */
  records?: number;
}

type Call = () => Promise<Expected>;

/**
 * Methods this test does not call, with where their audit record is checked instead. Kept short:
 * each needs a signed message from a chat platform or a DNS record this machine cannot serve.
 */
const checkedElsewhere: Record<string, string> = {
  "NotificationService.DecideFromChat": "chat-notifications.test.ts: the chat approver is the record's actor",
};

describe("audit trail: every mutating method of the contract leaves one record", () => {
  let server: TestServer;
  let admin: Credentials;
  let adminUserId: string;
  let tenantId: string;
  let idp: SamlTestIdp;
  const state: Record<string, string> = {};

  beforeAll(async () => {
    const started = await startSandboxServer({ members: ADMIN_AND_REQUESTER, scopes: ["Workloads"] });
    server = started.server;
    tenantId = server.defaultTenantId;
    const member = await server.addMember({ role: "ADMINISTRATOR", name: "Audra Auditor" });
    admin = member.credentials;
    adminUserId = member.userId;
    state.adminEmail = member.email;
    state.adminPassword = member.password;
    await server.palisade.database.db
      .update(user)
      .set({ instanceAdmin: true })
      .where(eq(user.id, adminUserId));
    idp = await startSamlTestIdp();
  }, 180_000);
  afterAll(async () => {
    await idp?.stop();
    await server?.stop();
  });

  const c = <S extends Parameters<TestServer["client"]>[0]>(service: S, credentials: Credentials = admin) =>
    server.client(service, credentials);

  async function scope(name: string) {
    const row = await node(server.palisade.database.db, tenantId, name);
    return { externalId: row.externalId, connectorId: row.connectorId };
  }

  async function outboxCode(to: string): Promise<string> {
    const outbox = join(server.dataDir, "outbox");
    const deadline = Date.now() + 15_000;
    for (;;) {
      const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith(".eml"));
      const dated = await Promise.all(
        names.map(async (n) => ({ n, at: (await stat(join(outbox, n))).mtimeMs })),
      );
      for (const { n } of dated.sort((a, b) => b.at - a.at)) {
        const mail = await simpleParser(await readFile(join(outbox, n)));
        const recipients = [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
        const code = (mail.text ?? "").match(/^(\d{6})$/m)?.[1];
        if (recipients.includes(to) && code) return code;
      }
      if (Date.now() > deadline) throw new Error(`no code mailed to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** An event of the bundle's deployment, as the event pipeline stores one. */
  async function seedEvent(): Promise<string> {
    const db = server.palisade.database.db;
    const occurredAt = new Date();
    const [event] = await db
      .insert(policyEvents)
      .values({
        tenantId,
        providerEventId: `audited-${Date.now()}`,
        type: "DENIED",
        cloudProvider: "aws",
        deploymentId: state.deploymentId,
        bundleId: state.bundleId,
        resourceExternalId: "arn:aws:s3:::audited-bucket",
        occurredAt,
      })
      .returning();
    await db.insert(resourceEvents).values({
      tenantId,
      deploymentId: state.deploymentId,
      bundleId: state.bundleId,
      resourceExternalId: "arn:aws:s3:::audited-bucket",
      type: "DENIED",
      lastEventId: event?.id ?? null,
      lastOccurredAt: occurredAt,
    });
    return event?.id ?? "";
  }

  async function newBundle(name: string) {
    const { bundle } = await c(DeploymentManagerService).createBundle({
      name,
      policySlug: "protect-s3-account-public-access-block",
      scopes: [await scope("Workloads")],
      mode: DeploymentMode.ALERT,
      isVisible: true,
    });
    return bundle;
  }

  // In call order: later entries use what earlier ones made.
  const calls: [string, Call][] = [
    [
      "TenantService.UpdateSettings",
      async () => {
        await c(TenantService).updateSettings({ name: "Audited" });
        return { targetType: "tenant", targetId: tenantId };
      },
    ],
    [
      "TenantService.CreateTenant",
      async () => {
        const { tenant } = await c(TenantService).createTenant({ name: "Second audited" });
        state.otherTenant = tenant?.id ?? "";
        return { targetType: "tenant", targetId: tenant?.id };
      },
    ],
    [
      "DeploymentManagerService.CreateBundle",
      async () => {
        const bundle = await newBundle("Audited bundle");
        state.bundleId = bundle?.entity?.id ?? "";
        state.key = bundle?.key ?? "";
        return { targetType: "bundle", targetId: bundle?.entity?.id };
      },
    ],
    [
      "DeploymentManagerService.UpdateBundle",
      async () => {
        await c(DeploymentManagerService).updateBundle({
          id: state.bundleId,
          name: "Audited bundle, renamed",
        });
        return { targetType: "bundle", targetId: state.bundleId };
      },
    ],
    [
      "DeploymentManagerService.Update",
      async () => {
        const { items } = await c(DeploymentManagerService).listDeployments({ bundleId: state.bundleId });
        state.deploymentId = items[0]?.deployment?.entity?.id ?? "";
        await c(DeploymentManagerService).update({ id: state.deploymentId, mode: DeploymentMode.PREVENT });
        return { targetType: "deployment", targetId: state.deploymentId };
      },
    ],
    [
      "DeploymentManagerService.UpdateAsync",
      async () => {
        await c(DeploymentManagerService).updateAsync({ id: state.deploymentId, mode: DeploymentMode.ALERT });
        return { targetType: "deployment", targetId: state.deploymentId };
      },
    ],
    [
      "DeploymentManagerService.CreateWaiver",
      async () => {
        const { waiver } = await c(DeploymentManagerService).createWaiver({
          key: state.key,
          expiresAt: { seconds: BigInt(Math.floor(Date.now() / 1000) + 3600) },
        });
        state.grantedWaiver = waiver?.entity?.id ?? "";
        return { targetType: "waiver", targetId: waiver?.entity?.id };
      },
    ],
    [
      "DeploymentManagerService.DeleteWaiver",
      async () => {
        await c(DeploymentManagerService).deleteWaiver({ id: state.grantedWaiver });
        return { targetType: "waiver", targetId: state.grantedWaiver };
      },
    ],
    [
      "WaiverService.Create",
      async () => {
        await c(DeploymentManagerService).updateBundle({
          id: state.bundleId,
          waiverSettings: { approvalMode: 2 },
        });
        const { waiver } = await c(WaiverService).create({
          key: state.key,
          duration: 3600n,
          comment: "audited",
        });
        state.waiverId = waiver?.entity?.id ?? "";
        return { targetType: "waiver", targetId: waiver?.entity?.id };
      },
    ],
    [
      "WaiverService.Update",
      async () => {
        const approver = await server.addMember({ role: "MODERATOR", name: "Mo Approver" });
        await c(WaiverService, approver.credentials).update({
          id: state.waiverId,
          status: WaiverStatus.REJECTED,
        });
        return { actorId: approver.userId, targetType: "waiver", targetId: state.waiverId };
      },
    ],
    [
      "WaiverService.Cancel",
      async () => {
        const { waiver } = await c(WaiverService).create({
          key: state.key,
          duration: 3600n,
          comment: "to cancel",
        });
        await c(WaiverService).cancel({ target: { case: "id", value: waiver?.entity?.id ?? "" } });
        return { targetType: "waiver", targetId: waiver?.entity?.id };
      },
    ],
    [
      "DeploymentManagerService.TriggerFetch",
      async () => {
        await c(DeploymentManagerService).triggerFetch({ id: state.bundleId });
        return { targetType: "bundle", targetId: state.bundleId };
      },
    ],
    [
      "DeploymentManagerService.Sync",
      async () => {
        await c(DeploymentManagerService).sync({});
        return { targetType: "tenant", targetId: tenantId };
      },
    ],
    [
      "DeploymentManagerService.Export",
      async () => {
        await c(DeploymentManagerService).export({});
        return { targetType: "export" };
      },
    ],
    [
      "DeploymentManagerService.ExportAsync",
      async () => {
        const { jobId } = await c(DeploymentManagerService).exportAsync({});
        return { targetType: "export", targetId: jobId };
      },
    ],
    [
      "DeploymentManagerService.DeleteBundle",
      async () => {
        const bundle = await newBundle("Bundle to delete");
        await c(DeploymentManagerService).deleteBundle({ id: bundle?.entity?.id ?? "" });
        return { targetType: "bundle", targetId: bundle?.entity?.id };
      },
    ],
    [
      "PolicyDefinitionService.Create",
      async () => {
        await c(PolicyDefinitionService).create({ policyDefinition: submitted("audited-regions") });
        return { targetType: "policy_definition", targetId: "audited-regions" };
      },
    ],
    [
      "PolicyDefinitionService.Update",
      async () => {
        await c(PolicyDefinitionService).update({ slug: "audited-regions", displayName: "Audited regions" });
        return { targetType: "policy_definition", targetId: "audited-regions" };
      },
    ],
    [
      "PolicyDefinitionService.Upgrade",
      async () => {
        await c(PolicyDefinitionService).upgrade({ policyDefinition: submitted("audited-regions") });
        return { targetType: "policy_definition", targetId: "audited-regions" };
      },
    ],
    [
      "PolicyEventStoreService.Export",
      async () => {
        await c(PolicyEventStoreService).export({});
        return { targetType: "export" };
      },
    ],
    [
      "PolicyEventStoreService.ExportAsync",
      async () => {
        const { jobId } = await c(PolicyEventStoreService).exportAsync({});
        return { targetType: "export", targetId: jobId };
      },
    ],
    [
      "PolicyEventStoreService.Update",
      async () => {
        state.eventId = await seedEvent();
        await c(PolicyEventStoreService).update({ id: state.eventId, isDismissed: true, reason: "known" });
        return { targetType: "policy_event", targetId: state.eventId };
      },
    ],
    [
      "PolicyEventStoreService.UpdateResources",
      async () => {
        await c(PolicyEventStoreService).updateResources({
          id: state.eventId,
          isDismissed: false,
          reason: "",
        });
        return { targetType: "policy_event" };
      },
    ],
    [
      "PolicyEventStoreService.TriggerFetch",
      async () => {
        await c(PolicyEventStoreService).triggerFetch({});
        return { targetType: "policy_event" };
      },
    ],
    [
      "PolicyEventStoreService.TriggerBundleFetch",
      async () => {
        await c(PolicyEventStoreService).triggerBundleFetch({ bundleId: state.bundleId });
        return { targetType: "policy_event" };
      },
    ],
    [
      "PolicyEventStoreService.Sync",
      async () => {
        await c(PolicyEventStoreService).sync({});
        return { targetType: "policy_event" };
      },
    ],
    [
      "ConnectorService.CreateConnector",
      async () => {
        const { connector } = await c(ConnectorService).createConnector({
          name: "Audited Azure",
          config: { kind: { case: "sandbox", value: { provider: CloudProvider.AZURE } } },
        });
        state.connectorId = connector?.entity?.id ?? "";
        return { targetType: "connector", targetId: state.connectorId };
      },
    ],
    [
      "ConnectorService.TestConnector",
      async () => {
        await c(ConnectorService).testConnector({ target: { case: "id", value: state.connectorId ?? "" } });
        return { targetType: "connector", targetId: state.connectorId };
      },
    ],
    [
      "ConnectorService.UpdateConnector",
      async () => {
        await c(ConnectorService).updateConnector({ id: state.connectorId, name: "Audited Azure, renamed" });
        return { targetType: "connector", targetId: state.connectorId };
      },
    ],
    [
      "ConnectorService.SyncHierarchy",
      async () => {
        await c(ConnectorService).syncHierarchy({ id: state.connectorId });
        return { targetType: "connector", targetId: state.connectorId };
      },
    ],
    [
      "ConnectorService.DeleteConnector",
      async () => {
        await c(ConnectorService).deleteConnector({ id: state.connectorId });
        return { targetType: "connector", targetId: state.connectorId };
      },
    ],
    [
      "TeamService.InviteMember",
      async () => {
        const { invitation } = await c(TeamService).inviteMember({
          email: "ines@audit.test",
          role: Role.VIEWER,
        });
        state.invitationId = invitation?.id ?? "";
        return { targetType: "invitation", targetId: state.invitationId };
      },
    ],
    [
      "TeamService.ResendInvitation",
      async () => {
        await c(TeamService).resendInvitation({ id: state.invitationId });
        return { targetType: "invitation", targetId: state.invitationId };
      },
    ],
    [
      "TeamService.RevokeInvitation",
      async () => {
        await c(TeamService).revokeInvitation({ id: state.invitationId });
        return { targetType: "invitation", targetId: state.invitationId };
      },
    ],
    [
      "TeamService.AcceptInvitationWithNewAccount",
      async () => {
        await c(TeamService).inviteMember({ email: "nina@audit.test", role: Role.VIEWER });
        const token = await outboxInvitationToken(server.dataDir, "nina@audit.test");
        await c(TeamService, { kind: "none" }).acceptInvitationWithNewAccount({
          token,
          name: "Nina New",
          password: "a long enough password for nina",
        });
        const [nina] = await server.palisade.database.db
          .select()
          .from(user)
          .where(eq(user.email, "nina@audit.test"));
        return { actorId: nina?.id, targetType: "invitation" };
      },
    ],
    [
      "TeamService.AcceptInvitation",
      async () => {
        const other = await server.addMember({
          role: "VIEWER",
          tenantId: state.otherTenant,
          email: "olga@audit.test",
        });
        await c(TeamService).inviteMember({ email: "olga@audit.test", role: Role.EDITOR });
        const token = await outboxInvitationToken(server.dataDir, "olga@audit.test");
        await c(TeamService, other.credentials).acceptInvitation({ token });
        state.olgaUserId = other.userId;
        return { actorId: other.userId, targetType: "invitation" };
      },
    ],
    [
      "TeamService.ChangeRole",
      async () => {
        const member = await server.addMember({ role: "VIEWER", email: "carl@audit.test" });
        state.memberId = member.memberId;
        await c(TeamService).changeRole({ memberId: member.memberId, role: Role.EDITOR });
        return { targetType: "member", targetId: member.memberId };
      },
    ],
    [
      "TeamService.ResetMemberMfa",
      async () => {
        await c(TeamService).resetMemberMfa({ memberId: state.memberId });
        return { targetType: "member", targetId: state.memberId };
      },
    ],
    [
      "TeamService.RevokeMemberSessions",
      async () => {
        await c(TeamService).revokeMemberSessions({ memberId: state.memberId });
        return { targetType: "member", targetId: state.memberId };
      },
    ],
    [
      "TeamService.SetInstanceAdmin",
      async () => {
        await c(TeamService).setInstanceAdmin({ memberId: state.memberId, instanceAdmin: true });
        return { targetType: "member", targetId: state.memberId };
      },
    ],
    [
      "TeamService.RemoveMember",
      async () => {
        await c(TeamService).removeMember({ memberId: state.memberId });
        return { targetType: "member", targetId: state.memberId };
      },
    ],
    [
      "TeamService.CreateApiKey",
      async () => {
        const { apiKey } = await c(TeamService).createApiKey({
          name: "Audited pipeline",
          role: Role.INTEGRATOR,
        });
        state.apiKeyId = apiKey?.id ?? "";
        return { targetType: "api_key", targetId: state.apiKeyId };
      },
    ],
    [
      "TeamService.RevokeApiKey",
      async () => {
        await c(TeamService).revokeApiKey({ id: state.apiKeyId });
        return { targetType: "api_key", targetId: state.apiKeyId };
      },
    ],
    [
      "TeamService.SendRequesterCode",
      async () => {
        const { tenant } = await c(TenantService).getCurrent({});
        const settings = tenant?.settings;
        if (!settings) throw new Error("the tenant has no settings");
        await c(TenantService).updateSettings({
          settings: { ...settings, waiverRequesterDomains: ["requesters.audit.test"] },
        });
        await c(TeamService, { kind: "none" }).sendRequesterCode({
          email: "rex@requesters.audit.test",
          policyKey: state.key,
        });
        return { actorId: null, targetType: "requester" };
      },
    ],
    [
      "TeamService.SignInRequester",
      async () => {
        const code = await outboxCode("rex@requesters.audit.test");
        await c(TeamService, { kind: "none" }).signInRequester({
          email: "rex@requesters.audit.test",
          policyKey: state.key,
          code,
        });
        const [rex] = await server.palisade.database.db
          .select()
          .from(user)
          .where(eq(user.email, "rex@requesters.audit.test"));
        return { actorId: rex?.id, targetType: "member" };
      },
    ],
    [
      "InitiativeService.InstallInitiative",
      async () => {
        const workloads = await scope("Workloads");
        const { items } = await c(InitiativeService).listInitiatives({});
        const aws = items.find((i) => i.providers.includes(CloudProvider.AWS));
        await c(InitiativeService).installInitiative({
          slug: aws?.slug ?? "",
          scopes: [{ externalId: workloads.externalId, provider: CloudProvider.AWS }],
          mode: DeploymentMode.ALERT,
          namespace: "audited",
        });
        return { targetType: "initiative", targetId: aws?.slug };
      },
    ],
    [
      "RecommendationService.AddRecommendation",
      async () => {
        const { recommendation } = await c(RecommendationService).addRecommendation({
          title: "Audited advice",
          provider: CloudProvider.AWS,
          policySlugs: ["deny-root-user-actions"],
          scopes: [{ ...(await scope("Workloads")), provider: CloudProvider.AWS }],
        });
        state.recommendationId = recommendation?.entity?.id ?? "";
        return { targetType: "recommendation", targetId: state.recommendationId };
      },
    ],
    [
      "RecommendationService.ArchiveRecommendation",
      async () => {
        await c(RecommendationService).archiveRecommendation({ id: state.recommendationId });
        return { targetType: "recommendation", targetId: state.recommendationId };
      },
    ],
    [
      "RecommendationService.UnarchiveRecommendation",
      async () => {
        await c(RecommendationService).unarchiveRecommendation({ id: state.recommendationId });
        return { targetType: "recommendation", targetId: state.recommendationId };
      },
    ],
    [
      "RecommendationService.InstallRecommendation",
      async () => {
        const { bundles } = await c(RecommendationService).installRecommendation({
          id: state.recommendationId,
        });
        state.recommendedBundle = bundles[0]?.entity?.id ?? "";
        return { targetType: "recommendation", targetId: state.recommendationId };
      },
    ],
    [
      "RecommendationService.MarkRecommendationInstalled",
      async () => {
        await c(RecommendationService).markRecommendationInstalled({
          id: state.recommendationId,
          bundleIds: [state.recommendedBundle ?? ""],
        });
        return { targetType: "recommendation", targetId: state.recommendationId };
      },
    ],
    [
      "RecommendationService.RefreshRecommendations",
      async () => {
        await c(RecommendationService).refreshRecommendations({});
        return { targetType: "tenant", targetId: tenantId };
      },
    ],
    [
      "NotificationService.UpdateSettings",
      async () => {
        await c(NotificationService).updateSettings({
          emailEnabled: true,
          slackBotToken: "xoxb-audited-secret",
        });
        return { targetType: "tenant", targetId: tenantId };
      },
    ],
    [
      "SsoService.UpdateSettings",
      async () => {
        await c(SsoService).updateSettings({
          protocol: SsoProtocol.SAML,
          saml: { issuer: idp.entityId, entryPoint: idp.ssoUrl, certificate: idp.certificate },
          domains: ["audited-sso.test"],
          defaultRole: Role.VIEWER,
          ssoRequired: false,
        });
        return { targetType: "sso", targetId: tenantId };
      },
    ],
    [
      "SsoService.CheckDomainRecord",
      async () => {
        // No DNS record can hold here: nothing changes, so nothing is recorded.
        await c(SsoService).checkDomainRecord({ domain: "audited-sso.test" });
        return { targetType: "sso_domain", records: 0 };
      },
    ],
    [
      "SsoService.SetDomainVerified",
      async () => {
        await c(SsoService).setDomainVerified({ tenantId, domain: "audited-sso.test", verified: true });
        return { targetType: "sso_domain", targetId: "audited-sso.test" };
      },
    ],
    [
      "SsoService.DeleteSettings",
      async () => {
        await c(SsoService).deleteSettings({});
        return { targetType: "sso", targetId: tenantId };
      },
    ],
    [
      "AuditService.ExportAsync",
      async () => {
        const { jobId } = await c(AuditService).exportAsync({ format: ExportFormat.JSON_LINES });
        return { targetType: "export", targetId: jobId };
      },
    ],
    [
      "AccountService.RevokeSession",
      async () => {
        // A second session of the same person, ended from the first.
        await server.signIn(state.adminEmail ?? "", state.adminPassword ?? "");
        const { sessions } = await c(AccountService).listSessions({});
        const other = sessions.find((session) => !session.current);
        await c(AccountService).revokeSession({ sessionId: other?.id ?? "" });
        return { targetType: "session", targetId: other?.id };
      },
    ],
    [
      "AccountService.RevokeAllSessions",
      async () => {
        await c(AccountService).revokeAllSessions({});
        return { targetType: "user", targetId: adminUserId };
      },
    ],
  ];

  async function lastSequence(): Promise<number> {
    const rows = await server.palisade.database.db
      .select({ sequence: auditLog.sequence })
      .from(auditLog)
      .where(eq(auditLog.tenantId, tenantId));
    return Math.max(0, ...rows.map((r) => r.sequence));
  }

  it("covers every mutating method: a new one without an entry here fails", () => {
    const covered = [...calls.map(([name]) => name), ...Object.keys(checkedElsewhere)].sort();
    expect(covered).toEqual(mutating);
  });

  it.each(calls.map(([name, call]) => ({ name, call })))("$name", async ({ name, call }) => {
    const baseline = await lastSequence();
    const expected = await call();
    const records = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenantId), gt(auditLog.sequence, baseline)));
    const own = records.filter((r) => r.action === name);
    expect(own, JSON.stringify(records.map((r) => [r.action, r.targetType]))).toHaveLength(
      expected.records ?? 1,
    );
    for (const record of own) {
      expect(record.actorId).toBe(expected.actorId === undefined ? adminUserId : expected.actorId);
      expect(record.targetType).toBe(expected.targetType);
      if (expected.targetId) expect(record.targetId).toBe(expected.targetId);
    }
  });
});
