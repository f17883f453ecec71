import type { AwsResource } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { declarativeDenial, dryRunSucceeded, ec2SettingCall, invalidParameter } from "./ec2-account-settings";
import {
  applyPermissions,
  ec2Id,
  makesPublic,
  ownInstance,
  permissionChange,
  permissionParameters,
} from "./ec2-sharing";
import { snapshotBlockPublicAccess } from "./ec2-snapshot-block-public-access";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * EBS snapshots in the sandbox: CreateSnapshots of an instance's (root) volume
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateSnapshots.html) and
 * ModifySnapshotAttribute's create-volume permissions
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifySnapshotAttribute.html).
 * Sharing a snapshot publicly (group `all`) is refused while block public access for snapshots is
 * `block-all-sharing` or `block-new-sharing`: in both "users in the account can't request new public
 * sharing" (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetSnapshotBlockPublicAccessState.html);
 * with the policy's `exception_message` when a declarative policy sets it. The documentation names no
 * error code for this refusal; the sandbox answers `UnauthorizedOperation`.
 */
export function createSnapshots(store: StateStore, who: WireCaller, params: URLSearchParams): string {
  const instanceId = params.get("InstanceSpecification.InstanceId");
  return ec2SettingCall(
    store,
    who,
    "CreateSnapshots",
    { instanceSpecification: { instanceId } },
    params,
    (_effective, dryRun) => {
      const instance = ownInstance(store, who, instanceId);
      if (dryRun) throw dryRunSucceeded();
      const id = ec2Id("snap");
      const volumeId = `vol-${instance.name.slice(2)}`;
      const startTime = store.now().toISOString();
      const snapshot: AwsResource = {
        arn: `arn:aws:ec2:${who.signed.region}::snapshot/${id}`,
        type: "AWS::EC2::Snapshot",
        accountId: who.account.id,
        region: who.signed.region,
        name: id,
        properties: {
          volumeId,
          sourceInstanceId: instance.name,
          permissionGroups: [],
          permissionUserIds: [],
        },
      };
      store.state.aws.resources.push(snapshot);
      return {
        result: `<snapshotSet><item>${elements([
          ["snapshotId", id],
          ["volumeId", volumeId],
          ["state", "pending"],
          ["volumeSize", 8],
          ["startTime", startTime],
          ["ownerId", who.account.id],
        ])}</item></snapshotSet>`,
        responseElements: { snapshotSet: { items: [{ snapshotId: id, volumeId, state: "pending" }] } },
      };
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}:${who.account.id}:instance/${instanceId ?? "*"}` }],
  );
}

export function modifySnapshotAttribute(store: StateStore, who: WireCaller, params: URLSearchParams): string {
  const snapshotId = params.get("SnapshotId");
  const change = permissionChange(params, "CreateVolumePermission", "createVolumePermission");
  return ec2SettingCall(
    store,
    who,
    "ModifySnapshotAttribute",
    {
      snapshotId,
      createVolumePermission: permissionParameters(change),
      attributeType: "CREATE_VOLUME_PERMISSION",
    },
    params,
    (effective, dryRun) => {
      const snapshot = store.state.aws.resources.find(
        (r) =>
          r.type === "AWS::EC2::Snapshot" &&
          r.name === snapshotId &&
          r.accountId === who.account.id &&
          r.region === who.signed.region,
      );
      if (!snapshot)
        throw new AwsError("InvalidSnapshot.NotFound", `The snapshot '${snapshotId}' does not exist.`);
      const attribute = params.get("Attribute");
      if (attribute && attribute !== "createVolumePermission")
        throw invalidParameter("The sandbox modifies only a snapshot's createVolumePermission attribute.");
      if (makesPublic(change)) {
        const { state, managed } = snapshotBlockPublicAccess(store, who, effective);
        if (state !== "unblocked" && managed)
          throw declarativeDenial(
            effective,
            `block public access for snapshots is ${state}: ${snapshotId} cannot be shared publicly`,
          );
        if (state !== "unblocked")
          throw new AwsError(
            "UnauthorizedOperation",
            `Block public access for snapshots is ${state} in this Region: ${snapshotId} cannot be shared publicly.`,
            403,
          );
      }
      if (dryRun) throw dryRunSucceeded();
      applyPermissions(snapshot, change);
      return { result: "", responseElements: null };
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}::snapshot/${snapshotId ?? "*"}` }],
  );
}
