import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  WaiverDeploymentStatus,
  WaiverSchema,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { describe, expect, it } from "vitest";
import {
  formatDuration,
  OWN_REQUEST_NOTE,
  requestedBy,
  waiverActions,
  waiverEndOf,
  waiverStatusLabel,
  waiverTargetOf,
} from "./waiver-row";

const all = { canUpdate: true, canWrite: true };
const { PENDING, ACTIVE, EXPIRED, CANCELLED, REJECTED } = WaiverStatus;
const cloud = WaiverDeploymentStatus;

describe("waiver actions", () => {
  it.each([
    ["awaiting approval", PENDING, cloud.PENDING, false, all, { approve: true, reject: true, cancel: true }],
    [
      "approved, not yet in the cloud",
      PENDING,
      cloud.PENDING,
      true,
      all,
      { approve: false, reject: false, cancel: true },
    ],
    ["active", ACTIVE, cloud.ACTIVE, true, all, { approve: false, reject: false, cancel: true }],
    ["expired", EXPIRED, cloud.ACTIVE, true, all, { approve: false, reject: false, cancel: false }],
    ["cancelled", CANCELLED, cloud.PENDING, false, all, { approve: false, reject: false, cancel: false }],
    ["rejected", REJECTED, cloud.PENDING, false, all, { approve: false, reject: false, cancel: false }],
    [
      "awaiting approval, moderator",
      PENDING,
      cloud.PENDING,
      false,
      { canUpdate: true, canWrite: false },
      { approve: true, reject: true, cancel: false },
    ],
    [
      "active, viewer",
      ACTIVE,
      cloud.ACTIVE,
      true,
      { canUpdate: false, canWrite: false },
      { approve: false, reject: false, cancel: false },
    ],
  ] as const)("%s", (_name, status, deploymentStatus, hasExpiry, grants, expected) => {
    expect(waiverActions({ status, deploymentStatus, hasExpiry }, grants)).toEqual(expected);
  });
});

describe("a reviewer's own request, with a separate approver required", () => {
  const own = { ...all, ownRequestNeedsOtherApprover: true };

  it("offers no Approve or Reject, says why, and still lets them withdraw it", () => {
    expect(
      waiverActions({ status: PENDING, deploymentStatus: cloud.PENDING, hasExpiry: false }, own),
    ).toEqual({
      approve: false,
      reject: false,
      cancel: true,
      note: OWN_REQUEST_NOTE,
    });
  });

  it("says nothing once the request is decided", () => {
    expect(waiverActions({ status: ACTIVE, deploymentStatus: cloud.ACTIVE, hasExpiry: true }, own).note).toBe(
      undefined,
    );
  });

  it("is the caller's request by e-mail, or by id for an integration", () => {
    expect(requestedBy("dev@example.com", { id: "u1", email: "dev@example.com" })).toBe(true);
    expect(requestedBy("key-1", { id: "key-1", email: "" })).toBe(true);
    expect(requestedBy("rita@example.com", { id: "u1", email: "dev@example.com" })).toBe(false);
    expect(requestedBy(undefined, { id: "", email: "" })).toBe(false);
  });
});

describe("waiver status label", () => {
  it.each([
    [PENDING, cloud.PENDING, false, "Awaiting approval"],
    [PENDING, cloud.PENDING, true, "Pending"],
    [PENDING, cloud.FAILED, true, "Failed"],
    [ACTIVE, cloud.ACTIVE, true, "Active"],
    [WaiverStatus.PROPAGATING, cloud.PROPAGATING, true, "Propagating"],
    [EXPIRED, cloud.ACTIVE, true, "Expired"],
    [CANCELLED, cloud.ACTIVE, true, "Cancelled"],
    [REJECTED, cloud.PENDING, false, "Rejected"],
  ] as const)("status %i, cloud %i, expiry %s reads %s", (status, deploymentStatus, hasExpiry, label) => {
    expect(waiverStatusLabel({ status, deploymentStatus, hasExpiry }).label).toBe(label);
  });
});

describe("duration", () => {
  it.each([
    [3_600n, "1 h"],
    [86_400n, "24 h"],
    [259_200n, "72 h"],
    [5_400n, "1 h 30 min"],
    [1_800n, "30 min"],
  ])("%s seconds reads %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe("a propagating waiver", () => {
  const propagating = {
    status: WaiverStatus.PROPAGATING,
    deploymentStatus: WaiverDeploymentStatus.PROPAGATING,
    hasExpiry: true,
    propagationEndsAt: new Date(Date.now() + 4 * 60_000 + 30_000),
  };

  it("says the action stays blocked for about the time Azure has left", () => {
    expect(waiverStatusLabel(propagating).hint).toBe(
      "Approved and written to Azure, which honours a new exemption within about 5 minutes; until then the action stays blocked.",
    );
  });

  it("can be cancelled, not approved again", () => {
    expect(waiverActions(propagating, { canUpdate: true, canWrite: true })).toEqual({
      approve: false,
      reject: false,
      cancel: true,
    });
  });

  it("offers nothing when applied from a file, naming the file and commit to change instead", () => {
    const managed = {
      ...propagating,
      managedBy: { path: "guardrails/waivers/legacy.yaml", commit: "3f2c1e0" },
    };
    expect(waiverActions(managed, { canUpdate: true, canWrite: true })).toEqual({
      approve: false,
      reject: false,
      cancel: false,
      note: "Managed by code: guardrails/waivers/legacy.yaml@3f2c1e0; change it in the repository.",
    });
  });
});

describe("what a waiver exempts, by name", () => {
  const account = (scopeName = "") =>
    create(WaiverSchema, {
      scope: "Account 917343093631",
      scopeName,
      target: { case: "targetScope", value: { externalId: "917343093631" } },
    });

  it("the server's name first, else the synced hierarchy's, else the server's description", () => {
    const names = new Map([["917343093631", "payments-prod (hierarchy)"]]);
    expect(waiverTargetOf(account("payments-prod"), names)).toEqual({
      id: "917343093631",
      name: "payments-prod",
    });
    expect(waiverTargetOf(account(), names)).toEqual({
      id: "917343093631",
      name: "payments-prod (hierarchy)",
    });
    expect(waiverTargetOf(account(), new Map())).toEqual({
      id: "917343093631",
      name: "Account 917343093631",
    });
  });

  it("nothing for a waiver on every scope of the policy", () => {
    expect(waiverTargetOf(create(WaiverSchema, {}), new Map())).toBeUndefined();
  });
});

describe("when a waiver ends", () => {
  const at = (iso: string) => timestampFromDate(new Date(iso));

  it("a cancelled waiver shows when it was cancelled, not its original expiry nor its last change", () => {
    const waiver = create(WaiverSchema, {
      status: CANCELLED,
      expiresAt: at("2026-12-05T10:00:00Z"),
      cancelledAt: at("2026-12-04T09:15:00Z"),
      entity: { updatedAt: at("2026-12-04T11:40:00Z") },
    });
    expect(waiverEndOf(waiver)).toEqual({ label: "Cancelled", at: new Date("2026-12-04T09:15:00Z") });
  });

  it.each([
    [ACTIVE, "Expires"],
    [EXPIRED, "Expired"],
  ] as const)("status %i reads %s at its expiry", (status, label) => {
    const waiver = create(WaiverSchema, { status, expiresAt: at("2026-12-05T10:00:00Z") });
    expect(waiverEndOf(waiver)).toEqual({ label, at: new Date("2026-12-05T10:00:00Z") });
  });
});
