import { imageCriteria } from "@palisade/policy-engine/evaluators/declarative/declarative-images";
import type { AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { ec2SettingCall, managedBy, policyValue } from "./ec2-account-settings";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * Allowed AMIs in the sandbox (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html),
 * judged by the policy-engine's evaluator (imageViolations) from what this file knows.
 * GetAllowedImagesSettings answers the state, the criteria and `managedBy`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_GetAllowedImagesSettings.html).
 * A declarative policy's `allowed_images_settings`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * sets them; the sandbox serves no account-level Enable/Replace calls, so without a policy the state
 * is `disabled`.
 *
 * The sandbox's notion of an AMI's provider is minimal and never kinder: an AMI created in the
 * sandbox (CreateImage) is provided by the account that created it; the sandbox's default Amazon
 * Linux image is provided by `amazon`; any other image's provider is unknown and matches no
 * criterion.
 */

/** Images the sandbox knows to be Amazon's: the Amazon Linux 2 AMI it launches by default. */
export const AMAZON_IMAGES = new Set(["ami-0c02fb55956c7d316"]);

/** The provider of an image as far as the sandbox knows it: the owning account ID, `amazon`, or undefined. */
export function imageProvider(aws: AwsState, imageId: string): string | undefined {
  const created = aws.resources.find((r) => r.type === "AWS::EC2::Image" && r.name === imageId);
  if (created) return created.accountId;
  return AMAZON_IMAGES.has(imageId) ? "amazon" : undefined;
}

export function getAllowedImagesSettings(
  store: StateStore,
  who: WireCaller,
  params: URLSearchParams,
): string {
  return ec2SettingCall(store, who, "GetAllowedImagesSettings", null, params, (effective) => {
    const policy = policyValue(effective, "allowed_images_settings.state");
    const criteria = imageCriteria(effective)
      .map(
        (c) =>
          `<item><imageProviderSet>${c.providers
            .map((p) => elements([["item", p]]))
            .join("")}</imageProviderSet></item>`,
      )
      .join("");
    return {
      result: `${elements([["state", (policy ?? "disabled").replace(/_/g, "-")]])}${
        criteria ? `<imageCriterionSet>${criteria}</imageCriterionSet>` : ""
      }${elements([["managedBy", managedBy(policy !== undefined || criteria !== "")]])}`,
      responseElements: null,
    };
  });
}
