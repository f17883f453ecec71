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
 * Block public access for AMIs, an account-level setting per Region
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/block-public-access-to-amis.html):
 * EnableImageBlockPublicAccess (`block-new-sharing`), DisableImageBlockPublicAccess (`unblocked`)
 * and GetImageBlockPublicAccessState with `managedBy`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetImageBlockPublicAccessState.html).
 * A declarative policy's `image_block_public_access.state`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets it and the account cannot change it: both Enable and Disable are refused while it does.
 * The state is `unblocked` until set (the sandbox does not model the accounts AWS created blocked).
 */
const ATTRIBUTE = "image_block_public_access.state";

/** The state in force for the caller's account and Region, and whether a declarative policy sets it. */
export function imageBlockPublicAccess(
  store: StateStore,
  who: WireCaller,
  effective: EffectiveDeclarative,
): { state: string; managed: boolean } {
  const policy = policyValue(effective, ATTRIBUTE);
  if (policy !== undefined) return { state: policy.replace(/_/g, "-"), managed: true };
  return { state: accountSettings(store, who).imageBlockPublicAccessState ?? "unblocked", managed: false };
}

export function imageBlockPublicAccessCall(
  store: StateStore,
  who: WireCaller,
  action: string,
  params: URLSearchParams,
): string {
  if (action === "GetImageBlockPublicAccessState") {
    return ec2SettingCall(store, who, action, null, params, (effective) => {
      const { state, managed } = imageBlockPublicAccess(store, who, effective);
      return {
        result: elements([
          ["imageBlockPublicAccessState", state],
          ["managedBy", managedBy(managed)],
        ]),
        responseElements: null,
      };
    });
  }
  const wanted = action === "EnableImageBlockPublicAccess" ? "block-new-sharing" : "unblocked";
  const requested = params.get("ImageBlockPublicAccessState");
  const requestParameters =
    action === "EnableImageBlockPublicAccess" ? { imageBlockPublicAccessState: requested } : null;
  return ec2SettingCall(store, who, action, requestParameters, params, (effective, dryRun) => {
    if (action === "EnableImageBlockPublicAccess" && requested !== "block-new-sharing")
      throw invalidParameter("ImageBlockPublicAccessState must be block-new-sharing.");
    const { state, managed } = imageBlockPublicAccess(store, who, effective);
    if (managed)
      throw declarativeDenial(
        effective,
        `block public access for AMIs is ${state} by the organisation and cannot be changed by the account`,
      );
    if (dryRun) throw dryRunSucceeded();
    accountSettings(store, who).imageBlockPublicAccessState = wanted;
    return {
      result: elements([["imageBlockPublicAccessState", wanted]]),
      responseElements: { imageBlockPublicAccessState: wanted },
    };
  });
}
