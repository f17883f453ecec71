import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { dryRunSucceeded, ec2SettingCall } from "./ec2-account-settings";
import { modifySharingAttribute } from "./ec2-modify-sharing";
import { addShareable, ec2Id, ownInstance } from "./ec2-sharing";
import { SNAPSHOT_BLOCK_PUBLIC_ACCESS } from "./ec2-snapshot-block-public-access";
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
      addShareable(store, who, "snapshot", id, { volumeId, sourceInstanceId: instance.name });
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
  return modifySharingAttribute(store, who, params, {
    action: "ModifySnapshotAttribute",
    idParameter: "SnapshotId",
    idField: "snapshotId",
    kind: "snapshot",
    structure: "CreateVolumePermission",
    attribute: "createVolumePermission",
    attributeType: "CREATE_VOLUME_PERMISSION",
    otherParameters: [],
    owner: "a snapshot's",
    notFound: (id) => new AwsError("InvalidSnapshot.NotFound", `The snapshot '${id}' does not exist.`),
    blockPublicAccess: SNAPSHOT_BLOCK_PUBLIC_ACCESS,
    refused: "be shared publicly",
    ownState: (state) => state,
    answer: { result: "", responseElements: null },
  });
}
