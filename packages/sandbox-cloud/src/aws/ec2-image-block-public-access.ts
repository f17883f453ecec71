import { blockPublicAccess } from "./ec2-block-public-access";

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
export const IMAGE_BLOCK_PUBLIC_ACCESS = blockPublicAccess({
  get: "GetImageBlockPublicAccessState",
  enable: "EnableImageBlockPublicAccess",
  parameter: "ImageBlockPublicAccessState",
  element: "imageBlockPublicAccessState",
  states: ["block-new-sharing"],
  attribute: "image_block_public_access.state",
  own: "imageBlockPublicAccessState",
  what: "block public access for AMIs",
});
