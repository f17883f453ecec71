import type { AwsResource } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { declarativeDenial, dryRunSucceeded, ec2SettingCall, invalidParameter } from "./ec2-account-settings";
import { imageBlockPublicAccess } from "./ec2-image-block-public-access";
import {
  applyPermissions,
  ec2Id,
  makesPublic,
  ownInstance,
  permissionChange,
  permissionParameters,
} from "./ec2-sharing";
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
      const image: AwsResource = {
        arn: `arn:aws:ec2:${who.signed.region}::image/${id}`,
        type: "AWS::EC2::Image",
        accountId: who.account.id,
        region: who.signed.region,
        name: id,
        properties: {
          imageName: name,
          sourceInstanceId: instanceId,
          permissionGroups: [],
          permissionUserIds: [],
        },
      };
      store.state.aws.resources.push(image);
      return { result: elements([["imageId", id]]), responseElements: { imageId: id } };
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}:${who.account.id}:instance/${instanceId ?? "*"}` }],
  );
}

export function modifyImageAttribute(store: StateStore, who: WireCaller, params: URLSearchParams): string {
  const imageId = params.get("ImageId");
  const change = permissionChange(params, "LaunchPermission", "launchPermission");
  return ec2SettingCall(
    store,
    who,
    "ModifyImageAttribute",
    { imageId, launchPermission: permissionParameters(change), attributeType: "launchPermission" },
    params,
    (effective, dryRun) => {
      const image = store.state.aws.resources.find(
        (r) =>
          r.type === "AWS::EC2::Image" &&
          r.name === imageId &&
          r.accountId === who.account.id &&
          r.region === who.signed.region,
      );
      if (!image) throw new AwsError("InvalidAMIID.NotFound", `The image id '[${imageId}]' does not exist`);
      const attribute = params.get("Attribute");
      const others = ["Description.Value", "ImdsSupport.Value", "ProductCode.1", "Value"].some((p) =>
        params.has(p),
      );
      if ((attribute && attribute !== "launchPermission") || others)
        throw invalidParameter("The sandbox modifies only an image's launchPermission attribute.");
      if (makesPublic(change)) {
        const { state, managed } = imageBlockPublicAccess(store, who, effective);
        if (state === "block-new-sharing" && managed)
          throw declarativeDenial(
            effective,
            `block public access for AMIs is ${state}: ${imageId} cannot be made public`,
          );
        if (state === "block-new-sharing")
          throw new AwsError(
            "UnauthorizedOperation",
            `Block public access for AMIs is enabled in this Region: ${imageId} cannot be made public.`,
            403,
          );
      }
      if (dryRun) throw dryRunSucceeded();
      applyPermissions(image, change);
      return { result: elements([["return", true]]), responseElements: { _return: true } };
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}::image/${imageId ?? "*"}` }],
  );
}
