import type { StateStore } from "../state/store";
import type { EffectiveDeclarative } from "./declarative-effective";
import {
  accountSettings,
  declarativeDenial,
  dryRunSucceeded,
  ec2SettingCall,
  invalidParameter,
  managedBy,
  policyValue,
} from "./ec2-account-settings";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

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
const ATTRIBUTE = "snapshot_block_public_access.state";
const STATES = ["block-all-sharing", "block-new-sharing"] as const;

export function snapshotBlockPublicAccess(
  store: StateStore,
  who: WireCaller,
  effective: EffectiveDeclarative,
): { state: string; managed: boolean } {
  const policy = policyValue(effective, ATTRIBUTE);
  if (policy !== undefined) return { state: policy.replace(/_/g, "-"), managed: true };
  return { state: accountSettings(store, who).snapshotBlockPublicAccessState ?? "unblocked", managed: false };
}

export function snapshotBlockPublicAccessCall(
  store: StateStore,
  who: WireCaller,
  action: string,
  params: URLSearchParams,
): string {
  if (action === "GetSnapshotBlockPublicAccessState") {
    return ec2SettingCall(store, who, action, null, params, (effective) => {
      const { state, managed } = snapshotBlockPublicAccess(store, who, effective);
      return {
        result: elements([
          ["state", state],
          ["managedBy", managedBy(managed)],
        ]),
        responseElements: null,
      };
    });
  }
  const enable = action === "EnableSnapshotBlockPublicAccess";
  const requested = params.get("State");
  return ec2SettingCall(
    store,
    who,
    action,
    enable ? { state: requested } : null,
    params,
    (effective, dryRun) => {
      const wanted = enable ? STATES.find((s) => s === requested) : "unblocked";
      if (!wanted) throw invalidParameter("State must be block-all-sharing or block-new-sharing.");
      const { state, managed } = snapshotBlockPublicAccess(store, who, effective);
      if (managed)
        throw declarativeDenial(
          effective,
          `block public access for snapshots is ${state} by the organisation and cannot be changed by the account`,
        );
      if (dryRun) throw dryRunSucceeded();
      accountSettings(store, who).snapshotBlockPublicAccessState = wanted;
      return { result: elements([["state", wanted]]), responseElements: { state: wanted } };
    },
  );
}
