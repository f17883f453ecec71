import { create, createFileRegistry, type DescMethod, setExtension } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { access, MethodAccessSchema, Permission } from "./gen/palisade/auth/v1/auth_pb";
import { methodAccess } from "./method-access";
import { allServices } from "./services";

const allMethods: DescMethod[] = allServices.flatMap((service) => service.methods);
const methodName = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;

// Methods callable without sign-in: the lookups of the public waiver-request page, and the
// invitation page, where the link's token is the credential, and the e-mail code of a signed-out
// requester (AcceptInvitation checks the
// session itself: the invitee may be a member of no tenant yet).
const expectedPublic = [
  "palisade.policy.v1.PolicyService/GetBundleByKey",
  "palisade.policy.v1.PolicyService/GetDefinitionBySlug",
  "palisade.policy.v1.PolicyService/ResolvePolicyKey",
  "palisade.policy.v1.PolicyService/ListWaiverScopes",
  "palisade.team.v1.TeamService/GetInvitationByToken",
  "palisade.team.v1.TeamService/AcceptInvitationWithNewAccount",
  "palisade.team.v1.TeamService/AcceptInvitation",
  "palisade.team.v1.TeamService/SendRequesterCode",
  "palisade.team.v1.TeamService/SignInRequester",
  "palisade.account.v1.AccountService/GetSignUpOptions",
  "palisade.sso.v1.SsoService/GetSignInOptions",
  "palisade.sso.v1.SsoService/LookupDomain",
];

// Methods on the caller's own account: any signed-in person, whether or not a member of a tenant.
const expectedAccount = [
  "palisade.account.v1.AccountService/ListSessions",
  "palisade.account.v1.AccountService/RevokeSession",
  "palisade.account.v1.AccountService/RevokeAllSessions",
  "palisade.account.v1.AccountService/ListSignInHistory",
];

type PermissionName = keyof typeof Permission;
const policiesWrite: PermissionName[] = ["POLICIES_WRITE_ALERT", "POLICIES_WRITE_PREVENT"];

const table = (service: string, rows: Record<string, PermissionName[]>) =>
  Object.entries(rows).map(([method, permissions]) => [`${service}/${method}`, permissions] as const);

// Permission table: specification section 6, and the design's choices where it is silent.
// "[]" means any signed-in member of the tenant.
const expectedPermissions: Record<string, PermissionName[]> = Object.fromEntries([
  ...table("palisade.tenant.v1.TenantService", {
    GetCurrent: [],
    UpdateSettings: ["TENANT_SETTINGS_WRITE"],
    CreateTenant: [],
  }),
  ...table("palisade.sso.v1.SsoService", {
    GetSettings: ["TENANT_SETTINGS_WRITE"],
    UpdateSettings: ["TENANT_SETTINGS_WRITE"],
    DeleteSettings: ["TENANT_SETTINGS_WRITE"],
    CheckDomainRecord: ["TENANT_SETTINGS_WRITE"],
    ListDomainRequests: [],
    SetDomainVerified: [],
  }),
  ...table("palisade.notification.v1.NotificationService", {
    GetSettings: ["TENANT_SETTINGS_WRITE"],
    UpdateSettings: ["TENANT_SETTINGS_WRITE"],
    DecideFromChat: ["WAIVERS_UPDATE"],
  }),
  ...table("palisade.audit.v1.AuditService", {
    List: ["AUDIT_READ"],
    ExportAsync: ["AUDIT_READ"],
    GetExportStatus: ["AUDIT_READ"],
  }),
  ...table("palisade.waiver.v1.WaiverAnalyticsService", {
    Analytics: ["WAIVERS_READ"],
  }),
  ...table("palisade.waiver.v1.WaiverService", {
    Create: ["WAIVERS_REQUEST"],
    GetOwn: ["WAIVERS_REQUEST"],
    List: ["WAIVERS_READ"],
    ListCreators: ["WAIVERS_READ"],
    Summary: ["WAIVERS_READ"],
    Cancel: ["WAIVERS_WRITE"],
    Update: ["WAIVERS_UPDATE"],
  }),
  ...table("palisade.deployment.v1.DeploymentManagerService", {
    ListNamespaces: ["POLICIES_READ"],
    TriggerFetch: ["POLICIES_WRITE_ALERT"],
    Sync: ["POLICIES_WRITE_ALERT"],
    Update: policiesWrite,
    UpdateAsync: policiesWrite,
    Get: ["POLICIES_READ"],
    CreateWaiver: ["WAIVERS_WRITE"],
    DeleteWaiver: ["WAIVERS_WRITE"],
    CreateBundle: policiesWrite,
    GetBundle: ["POLICIES_READ"],
    UpdateBundle: policiesWrite,
    DeleteBundle: policiesWrite,
    ListBundle: ["POLICIES_READ"],
    SummaryBundle: ["POLICIES_READ"],
    SummaryNamespace: ["POLICIES_READ"],
    ListDeployments: ["POLICIES_READ"],
    Export: ["POLICIES_READ"],
    ExportAsync: ["POLICIES_READ"],
    ListValidDeploymentsByBundleIds: ["POLICIES_READ"],
    StartImpactPreview: ["POLICIES_READ"],
    GetImpactPreview: ["POLICIES_READ"],
  }),
  ...table("palisade.policydefinition.v1.PolicyDefinitionService", {
    Create: ["POLICY_DEFINITION_WRITE"],
    Update: ["POLICY_DEFINITION_WRITE"],
    Upgrade: ["POLICY_DEFINITION_WRITE"],
    Get: ["POLICIES_READ"],
    List: ["POLICIES_READ"],
    ListAffectedResources: ["POLICIES_READ"],
    ListMainResources: ["POLICIES_READ"],
    ListFrameworks: ["POLICIES_READ"],
  }),
  ...table("palisade.policy.v1.PolicyService", {
    GetPolicies: ["POLICIES_READ"],
  }),
  ...table("palisade.event.v1.PolicyEventStoreService", {
    Get: ["EVENTS_READ"],
    List: ["EVENTS_READ"],
    ListEvents: ["EVENTS_READ"],
    Export: ["EVENTS_READ"],
    ExportAsync: ["EVENTS_READ"],
    GetExportStatus: ["EVENTS_READ"],
    ListHierarchyEvents: ["EVENTS_READ"],
    Update: ["EVENTS_DISMISS"],
    UpdateResources: ["EVENTS_DISMISS"],
    Summary: ["EVENTS_READ"],
    SummaryEvents: ["EVENTS_READ"],
    SummaryResources: ["EVENTS_READ"],
    ListResourceTypes: ["EVENTS_READ"],
    ListUserNames: ["EVENTS_READ"],
    GetCompliantTrend: ["EVENTS_READ"],
    GetComplianceRequestLastFetchedAt: ["EVENTS_READ"],
    TriggerFetch: ["POLICIES_WRITE_ALERT"],
    TriggerBundleFetch: ["POLICIES_WRITE_ALERT"],
    Sync: ["POLICIES_WRITE_ALERT"],
  }),
  ...table("palisade.connector.v1.ConnectorService", {
    CreateConnector: ["CONNECTORS_WRITE"],
    TestConnector: ["CONNECTORS_WRITE"],
    ListConnectors: ["CONNECTORS_READ"],
    GetConnector: ["CONNECTORS_READ"],
    UpdateConnector: ["CONNECTORS_WRITE"],
    DeleteConnector: ["CONNECTORS_WRITE"],
    SyncHierarchy: ["CONNECTORS_WRITE"],
    ListHierarchy: ["CONNECTORS_READ"],
    GetSetupInstructions: ["CONNECTORS_READ"],
    GetPolicySpace: ["CONNECTORS_READ"],
  }),
  ...table("palisade.team.v1.TeamService", {
    ListMembers: ["USERS_READ"],
    InviteMember: ["USERS_WRITE"],
    ListInvitations: ["USERS_READ"],
    RevokeInvitation: ["USERS_WRITE"],
    ResendInvitation: ["USERS_WRITE"],
    ChangeRole: ["USERS_WRITE"],
    RemoveMember: ["USERS_WRITE"],
    ListApiKeys: ["USERS_READ"],
    CreateApiKey: ["USERS_WRITE"],
    RevokeApiKey: ["USERS_WRITE"],
    SetInstanceAdmin: ["USERS_WRITE"],
    ResetMemberMfa: ["USERS_WRITE"],
    RevokeMemberSessions: ["USERS_WRITE"],
  }),
  ...table("palisade.initiative.v1.InitiativeService", {
    ListInitiatives: ["INITIATIVES_READ"],
    GetInitiative: ["INITIATIVES_READ"],
    ListInitiativePolicies: ["INITIATIVES_READ"],
    InstallInitiative: ["INITIATIVES_INSTANCE_WRITE"],
    GetInitiativeInstall: ["INITIATIVES_READ"],
  }),
  ...table("palisade.recommendation.v1.RecommendationService", {
    ListRecommendations: ["RECOMMENDATIONS_READ"],
    GetRecommendation: ["RECOMMENDATIONS_READ"],
    ArchiveRecommendation: ["RECOMMENDATIONS_WRITE"],
    UnarchiveRecommendation: ["RECOMMENDATIONS_WRITE"],
    AddRecommendation: ["RECOMMENDATIONS_WRITE"],
    InstallRecommendation: ["RECOMMENDATIONS_INSTALL"],
    MarkRecommendationInstalled: ["RECOMMENDATIONS_INSTALL"],
    RefreshRecommendations: ["RECOMMENDATIONS_WRITE"],
  }),
]);

function fakeMethod(options?: ReturnType<typeof create<typeof MethodOptionsSchema>>): DescMethod {
  const registry = createFileRegistry(
    create(FileDescriptorProtoSchema, {
      name: "fake.proto",
      package: "fake",
      syntax: "proto3",
      messageType: [{ name: "Empty" }],
      service: [
        {
          name: "FakeService",
          method: [{ name: "Do", inputType: ".fake.Empty", outputType: ".fake.Empty", options }],
        },
      ],
    }),
    () => undefined,
  );
  const method = registry.getService("fake.FakeService")?.methods[0];
  if (!method) throw new Error("fake service not built");
  return method;
}

describe("methodAccess", () => {
  it("every service is listed once", () => {
    const names = allServices.map((s) => s.typeName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(allMethods.map((m) => [methodName(m), m] as const))("%s declares its access", (_, method) => {
    expect(() => methodAccess(method)).not.toThrow();
  });

  it("public methods are exactly the waiver page lookups and the invitation page's methods", () => {
    const publicMethods = allMethods.filter((m) => methodAccess(m).public).map(methodName);
    expect(publicMethods.sort()).toEqual([...expectedPublic].sort());
  });

  it("no public method lists permissions", () => {
    for (const method of allMethods) {
      const rule = methodAccess(method);
      if (rule.public) expect(rule.permissions, methodName(method)).toEqual([]);
    }
  });

  it("account methods are exactly those on the caller's own account, and list no permissions", () => {
    const accountMethods = allMethods.filter((m) => methodAccess(m).account);
    expect(accountMethods.map(methodName).sort()).toEqual([...expectedAccount].sort());
    for (const method of accountMethods)
      expect(methodAccess(method).permissions, methodName(method)).toEqual([]);
  });

  it("the permission table covers every tenant method and nothing else", () => {
    const declared = allMethods
      .filter((m) => !methodAccess(m).public && !methodAccess(m).account)
      .map(methodName);
    expect(declared.sort()).toEqual(Object.keys(expectedPermissions).sort());
  });

  it.each(Object.entries(expectedPermissions))("%s requires %j", (name, expected) => {
    const method = allMethods.find((m) => methodName(m) === name);
    expect(method, name).toBeDefined();
    if (!method) return;
    const rule = methodAccess(method);
    expect(rule.public).toBe(false);
    expect(rule.permissions.map((p) => Permission[p]).sort()).toEqual([...expected].sort());
  });

  it("rejects a method without the access option", () => {
    expect(() => methodAccess(fakeMethod())).toThrow(/does not declare/);
  });

  it("rejects a method that is public and lists permissions", () => {
    const options = create(MethodOptionsSchema);
    setExtension(
      options,
      access,
      create(MethodAccessSchema, { public: true, permissions: [Permission.POLICIES_READ] }),
    );
    expect(() => methodAccess(fakeMethod(options))).toThrow(/public and also lists permissions/);
  });

  it("rejects an account method that lists permissions", () => {
    const options = create(MethodOptionsSchema);
    setExtension(
      options,
      access,
      create(MethodAccessSchema, { account: true, permissions: [Permission.POLICIES_READ] }),
    );
    expect(() => methodAccess(fakeMethod(options))).toThrow(/account method/);
  });
});
