import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { dryRunSucceeded, ec2SettingCall } from "./ec2-account-settings";
import { IMAGE_BLOCK_PUBLIC_ACCESS } from "./ec2-image-block-public-access";
import { modifySharingAttribute } from "./ec2-modify-sharing";
import { addShareable, ec2Id, ownInstance } from "./ec2-sharing";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * AMIs in the sandbox: CreateImage from one of the account's instances
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateImage.html) and
 * ModifyImageAttribute's launch permissions
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifyImageAttribute.html).
 * Making an AMI public (group `all`) is refused while block public access for AMIs is
 * `block-new-sharing` (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/block-public-access-to-amis.html):
 * with the policy's `exception_message` when a declarative policy sets it. The documentation names no
 * error code for this refusal; the sandbox answers `UnauthorizedOperation` in both cases.
 * Only launch permissions can be modified in the sandbox; other attributes are refused.
 */
export function createImage(store: StateStore, who: WireCaller, params: URLSearchParams): string {
  const instanceId = params.get("InstanceId");
  const name = params.get("Name");
  return ec2SettingCall(
    store,
    who,
    "CreateImage",
    { instanceId, name, noReboot: false },
    params,
    (_effective, dryRun) => {
      if (!instanceId || !name)
        throw new AwsError("MissingParameter", "The request must contain InstanceId and Name.");
      ownInstance(store, who, instanceId);
      if (dryRun) throw dryRunSucceeded();
      const id = ec2Id("ami");
      addShareable(store, who, "image", id, { imageName: name, sourceInstanceId: instanceId });
      return { result: elements([["imageId", id]]), responseElements: { imageId: id } };
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}:${who.account.id}:instance/${instanceId ?? "*"}` }],
  );
}

export function modifyImageAttribute(store: StateStore, who: WireCaller, params: URLSearchParams): string {
  return modifySharingAttribute(store, who, params, {
    action: "ModifyImageAttribute",
    idParameter: "ImageId",
    idField: "imageId",
    kind: "image",
    structure: "LaunchPermission",
    attribute: "launchPermission",
    attributeType: "launchPermission",
    otherParameters: ["Description.Value", "ImdsSupport.Value", "ProductCode.1", "Value"],
    owner: "an image's",
    notFound: (id) => new AwsError("InvalidAMIID.NotFound", `The image id '[${id}]' does not exist`),
    blockPublicAccess: IMAGE_BLOCK_PUBLIC_ACCESS,
    refused: "be made public",
    ownState: () => "enabled",
    answer: { result: elements([["return", true]]), responseElements: { _return: true } },
  });
}
