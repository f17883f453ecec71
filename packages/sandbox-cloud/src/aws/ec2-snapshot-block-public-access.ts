import { blockPublicAccess } from "./ec2-block-public-access";

/**
 * Block public access for EBS snapshots, an account-level setting per Region
 * (https://docs.aws.amazon.com/ebs/latest/userguide/block-public-access-snapshots.html):
 * EnableSnapshotBlockPublicAccess with `block-all-sharing` or `block-new-sharing`,
 * DisableSnapshotBlockPublicAccess (`unblocked`) and GetSnapshotBlockPublicAccessState with
 * `managedBy` (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetSnapshotBlockPublicAccessState.html).
 * A declarative policy's `snapshot_block_public_access.state`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets it and the account cannot change it: both Enable and Disable are refused while it does.
 */
export const SNAPSHOT_BLOCK_PUBLIC_ACCESS = blockPublicAccess({
  get: "GetSnapshotBlockPublicAccessState",
  enable: "EnableSnapshotBlockPublicAccess",
  parameter: "State",
  element: "state",
  states: ["block-all-sharing", "block-new-sharing"],
  attribute: "snapshot_block_public_access.state",
  own: "snapshotBlockPublicAccessState",
  what: "block public access for snapshots",
});
