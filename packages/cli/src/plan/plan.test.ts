import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  DeploymentBundleSchema,
  DeploymentMode,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import {
  WaiverApprovalMode,
  WaiverCreateSource,
  WaiverSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { describe, expect, it } from "vitest";
import type { Folder, LoadedFile } from "../files/read-files";
import type { BundleFile, WaiverFile } from "../files/schemas";
import type { RemoteState } from "../remote/state";
import { planChanges } from "./plan";

const SUBSCRIPTION = "/subscriptions/2b6c9c1e-0000-4000-8000-000000000001";
const source = { path: "guardrails", commit: "abc" };

const loaded = <T>(path: string, value: T): LoadedFile<T> => ({ path, value, lineOf: () => 1 });

const bundleFile = (overrides: Partial<BundleFile> = {}): BundleFile => ({
  kind: "Bundle",
  name: "Allowed locations",
  policy: "allowed-locations",
  mode: "prevent",
  scopes: [SUBSCRIPTION],
  ...overrides,
});

const remoteBundle = (name: string, managedPath?: string, mode = DeploymentMode.PREVENT) =>
  create(DeploymentBundleSchema, {
    entity: { id: `id-${name}` },
    key: "ABCDEFG",
    name,
    policySlug: "allowed-locations",
    provider: CloudProvider.AZURE,
    mode,
    scopes: [{ externalId: SUBSCRIPTION.toUpperCase() }],
    isVisible: true,
    waiverSettings: { approvalMode: WaiverApprovalMode.MANUAL },
    ...(managedPath ? { managedBy: { path: managedPath, commit: "old" } } : {}),
  });

const folderOf = (bundles: LoadedFile<BundleFile>[], waivers: LoadedFile<WaiverFile>[] = []): Folder => ({
  bundles,
  waivers,
  problems: [],
});

const remoteOf = (bundles: RemoteState["bundles"], waivers: RemoteState["waivers"] = []): RemoteState => ({
  tenantName: "Default",
  bundles,
  waivers,
  tenantSettings: undefined,
  notificationSettings: undefined,
});

describe("planChanges", () => {
  it("sees no change for the same bundle: scopes compared without case, a new commit alone is no change", () => {
    const plan = planChanges(
      folderOf([loaded("bundles/locations.yaml", bundleFile({ waiver_approval: "tenant-default" }))]),
      remoteOf([remoteBundle("Allowed locations", "guardrails/bundles/locations.yaml")]),
      { source, prune: false },
    );
    expect(plan.changes).toEqual([]);
  });

  it("takes over a bundle made by hand with the file's name, marking it as managed", () => {
    const plan = planChanges(
      folderOf([loaded("bundles/locations.yaml", bundleFile())]),
      remoteOf([remoteBundle("Allowed locations")]),
      { source, prune: true },
    );
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({
      action: "update",
      fields: [{ field: "managed_by", before: "(made by hand)", after: "guardrails/bundles/locations.yaml" }],
    });
  });

  it("replaces a bundle whose policy changed", () => {
    const plan = planChanges(
      folderOf([
        loaded("bundles/locations.yaml", bundleFile({ policy: "allowed-locations-resource-groups" })),
      ]),
      remoteOf([remoteBundle("Allowed locations", "guardrails/bundles/locations.yaml")]),
      { source, prune: false },
    );
    expect(plan.changes.map((c) => c.action)).toEqual(["replace"]);
  });

  it("prunes only bundles managed under the same folder, never hand-made ones or another folder's", () => {
    const remote = remoteOf([
      remoteBundle("Gone", "guardrails/bundles/gone.yaml"),
      remoteBundle("Other folder", "platform/bundles/other.yaml"),
      remoteBundle("Made by hand"),
    ]);
    const kept = planChanges(folderOf([]), remote, { source, prune: false });
    expect(kept.changes).toEqual([]);
    expect(kept.notes).toEqual([
      "1 managed bundle(s) are no longer in the files; apply --prune removes them.",
    ]);
    const pruned = planChanges(folderOf([]), remote, { source, prune: true });
    expect(
      pruned.changes.map((c) => (c.action === "remove" && c.object === "bundle" ? c.remote.name : "")),
    ).toEqual(["Gone"]);
  });

  it("counts an AWS waiver ending up to an hour after the file's expiry as unchanged, and skips expired files", () => {
    const now = new Date("2030-01-01T00:00:00Z");
    const expires = "2030-01-01T12:00:00Z";
    const waiverFile: WaiverFile = {
      kind: "Waiver",
      bundle: "Allowed locations",
      scope: SUBSCRIPTION,
      requester: { name: "Alice", email: "alice@example.com" },
      reason: "Recovery test",
      expires,
    };
    const applied = (end: string) =>
      create(WaiverSchema, {
        entity: { id: "w1" },
        policyDeployment: { name: "Allowed locations" },
        target: { case: "targetScope", value: { externalId: SUBSCRIPTION } },
        createSource: WaiverCreateSource.SYSTEM,
        requester: { name: "Alice", identifier: "alice@example.com", comment: "Recovery test" },
        expiresAt: timestampFromDate(new Date(end)),
        managedBy: { path: "guardrails/waivers/recovery.yaml", commit: "abc" },
      });
    const folder = folderOf([], [loaded("waivers/recovery.yaml", waiverFile)]);
    const within = planChanges(folder, remoteOf([], [applied("2030-01-01T12:40:00Z")]), {
      source,
      prune: false,
      now,
    });
    expect(within.changes).toEqual([]);
    const later = planChanges(folder, remoteOf([], [applied("2030-01-01T14:00:00Z")]), {
      source,
      prune: false,
      now,
    });
    expect(later.changes.map((c) => c.action)).toEqual(["replace"]);
    const expired = planChanges(folder, remoteOf([]), {
      source,
      prune: false,
      now: new Date("2030-02-01T00:00:00Z"),
    });
    expect(expired.changes).toEqual([]);
    expect(expired.notes).toEqual([`waivers/recovery.yaml: expired at ${expires}; nothing to apply.`]);
  });
});
