import { describe, expect, it } from "vitest";
import { Permission, Role } from "./gen/palisade/auth/v1/auth_pb";
import { roleHasPermission, rolePermissions } from "./roles";

const readPermissions = [
  "POLICIES_READ",
  "RECOMMENDATIONS_READ",
  "WAIVERS_READ",
  "EVENTS_READ",
  "CONNECTORS_READ",
  "USERS_READ",
  "INITIATIVES_READ",
];
const viewer = [...readPermissions, "WAIVERS_REQUEST"];
const moderator = [...viewer, "WAIVERS_UPDATE", "EVENTS_DISMISS", "RECOMMENDATIONS_WRITE"];
const editor = [
  ...moderator,
  "POLICIES_WRITE_ALERT",
  "POLICIES_WRITE_PREVENT",
  "WAIVERS_WRITE",
  "RECOMMENDATIONS_INSTALL",
  "INITIATIVES_INSTANCE_WRITE",
];
// Specification section 3, in its order.
const everyPermission = [
  "POLICIES_READ",
  "POLICIES_WRITE_ALERT",
  "POLICIES_WRITE_PREVENT",
  "POLICY_DEFINITION_WRITE",
  "RECOMMENDATIONS_READ",
  "RECOMMENDATIONS_INSTALL",
  "RECOMMENDATIONS_WRITE",
  "WAIVERS_READ",
  "WAIVERS_WRITE",
  "WAIVERS_UPDATE",
  "WAIVERS_REQUEST",
  "EVENTS_READ",
  "EVENTS_DISMISS",
  "CONNECTORS_READ",
  "CONNECTORS_WRITE",
  "USERS_READ",
  "USERS_WRITE",
  "INITIATIVES_READ",
  "INITIATIVES_WRITE",
  "INITIATIVES_INSTANCE_WRITE",
  "TENANT_SETTINGS_WRITE",
  // Who changed what: the administrator's alone.
  "AUDIT_READ",
];

// The design's "Identity and permissions" table.
const designTable: [keyof typeof Role, string[]][] = [
  ["UNSPECIFIED", []],
  ["VISITOR", ["WAIVERS_REQUEST"]],
  ["VIEWER", viewer],
  ["MODERATOR", moderator],
  ["EDITOR", editor],
  ["ADMINISTRATOR", everyPermission],
  [
    "INTEGRATOR",
    [
      "POLICIES_READ",
      "POLICIES_WRITE_ALERT",
      "EVENTS_READ",
      "WAIVERS_READ",
      "WAIVERS_REQUEST",
      "CONNECTORS_READ",
    ],
  ],
];

const names = (permissions: readonly Permission[]) => permissions.map((p) => Permission[p]).sort();

describe("rolePermissions", () => {
  it("the Permission enum holds exactly the specification's permissions", () => {
    const declared = Object.keys(Permission).filter((k) => Number.isNaN(Number(k)) && k !== "UNSPECIFIED");
    expect(declared.sort()).toEqual([...everyPermission].sort());
  });

  it.each(designTable)("%s grants exactly the design's permissions", (role, expected) => {
    const granted = rolePermissions[Role[role]];
    expect(names(granted)).toEqual([...expected].sort());
    expect(new Set(granted).size).toBe(granted.length);
  });

  it.each([
    [Role.VISITOR, Permission.WAIVERS_REQUEST, true],
    [Role.VISITOR, Permission.WAIVERS_READ, false],
    [Role.VIEWER, Permission.EVENTS_DISMISS, false],
    [Role.MODERATOR, Permission.EVENTS_DISMISS, true],
    [Role.EDITOR, Permission.POLICY_DEFINITION_WRITE, false],
    [Role.ADMINISTRATOR, Permission.POLICY_DEFINITION_WRITE, true],
    [Role.INTEGRATOR, Permission.POLICIES_WRITE_PREVENT, false],
    [Role.ADMINISTRATOR, Permission.AUDIT_READ, true],
    [Role.EDITOR, Permission.AUDIT_READ, false],
    [Role.UNSPECIFIED, Permission.POLICIES_READ, false],
  ])("roleHasPermission(%s, %s) is %s", (role, permission, expected) => {
    expect(roleHasPermission(role, permission)).toBe(expected);
  });
});
