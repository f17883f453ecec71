import type { AwsState } from "../state/model";
import type { AwsError } from "./common";
import { effectiveDeclarative } from "./declarative-effective";
import { declarativeDenial, policyValue } from "./ec2-account-settings";
import { allowedImageRefusal } from "./ec2-allowed-images";

/**
 * The declarative refusal of an EC2 call stated as an IAM action and its condition keys (as
 * `/sandbox/try` states calls), for the attributes that do not depend on the call's own parameters:
 * a change to an account-level setting the effective policy sets ("account administrators will not
 * be able to modify the value of the service attribute at the individual account level",
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html),
 * and a launch from an image the Allowed AMIs criteria do not allow (`ec2:ImageID`). Public sharing of
 * AMIs and snapshots is judged on EC2's own endpoint only: no IAM condition key says a request makes
 * an image or snapshot public.
 */
const SETTING_OF: Record<string, { path: string; what: string }> = {
  "ec2:EnableSerialConsoleAccess": { path: "serial_console_access.status", what: "serial console access" },
  "ec2:DisableSerialConsoleAccess": { path: "serial_console_access.status", what: "serial console access" },
  "ec2:EnableImageBlockPublicAccess": {
    path: "image_block_public_access.state",
    what: "block public access for AMIs",
  },
  "ec2:DisableImageBlockPublicAccess": {
    path: "image_block_public_access.state",
    what: "block public access for AMIs",
  },
  "ec2:EnableSnapshotBlockPublicAccess": {
    path: "snapshot_block_public_access.state",
    what: "block public access for snapshots",
  },
  "ec2:DisableSnapshotBlockPublicAccess": {
    path: "snapshot_block_public_access.state",
    what: "block public access for snapshots",
  },
  "ec2:ModifyVpcBlockPublicAccessOptions": {
    path: "vpc_block_public_access.internet_gateway_block.mode",
    what: "VPC block public access",
  },
};

export function governedCallRefusal(
  aws: AwsState,
  accountId: string,
  action: string,
  imageId: string | undefined,
): AwsError | undefined {
  const setting = Object.entries(SETTING_OF).find(([a]) => a.toLowerCase() === action.toLowerCase())?.[1];
  if (!setting && !(action.toLowerCase() === "ec2:runinstances" && imageId)) return undefined;
  const effective = effectiveDeclarative(aws, accountId);
  if (setting) {
    const value = policyValue(effective, setting.path);
    return value === undefined
      ? undefined
      : declarativeDenial(
          effective,
          `${setting.what} is ${value.replace(/_/g, "-")} by the organisation and cannot be changed by the account`,
        );
  }
  return allowedImageRefusal(aws, accountId, effective, imageId!.split("/").pop()!);
}
