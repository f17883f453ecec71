import type { AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import type { EffectiveDeclarative } from "./declarative-effective";
import { declarativeDenial, ec2SettingCall, managedBy, policyValue } from "./ec2-account-settings";
import { elements } from "./s3/s3-xml";
import type { WireCaller } from "./wire-caller";

/**
 * Allowed AMIs (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html): with the
 * setting `enabled`, only AMIs matching one of the image criteria can be used to launch instances;
 * `audit-mode` and `disabled` restrict nothing; the account's own AMIs are always allowed. A
 * criterion's providers are `amazon`, `aws-marketplace`, `aws-backup-vault`, account IDs or `none`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ImageCriterion.html).
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
 * criterion. A criterion is evaluated only on its providers; one that states anything else (names,
 * product codes, dates) matches no image, since the sandbox cannot tell whether an image meets it.
 */
const PREFIX = "allowed_images_settings.image_criteria.";

/** Images the sandbox knows to be Amazon's: the Amazon Linux 2 AMI it launches by default. */
export const AMAZON_IMAGES = new Set(["ami-0c02fb55956c7d316"]);

type Criterion = Map<string, unknown>;

function criteriaOf(effective: EffectiveDeclarative): Criterion[] {
  const byName = new Map<string, Criterion>();
  for (const [path, value] of effective) {
    if (!path.startsWith(PREFIX)) continue;
    const [name = "", ...field] = path.slice(PREFIX.length).split(".");
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(field.join("."), value);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([, c]) => c);
}

const providersOf = (criterion: Criterion) => {
  const v = criterion.get("allowed_image_providers");
  return Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
};

/** The provider of an image as far as the sandbox knows it: the owning account ID, `amazon`, or undefined. */
export function imageProvider(aws: AwsState, imageId: string): string | undefined {
  const created = aws.resources.find((r) => r.type === "AWS::EC2::Image" && r.name === imageId);
  if (created) return created.accountId;
  return AMAZON_IMAGES.has(imageId) ? "amazon" : undefined;
}

/**
 * The refusal of a launch from an image the effective policy does not allow. AWS documents that such
 * an AMI cannot be used but names no error code; the sandbox answers `UnauthorizedOperation` with the
 * policy's `exception_message`, as for the other declarative refusals.
 */
export function allowedImageRefusal(
  aws: AwsState,
  accountId: string,
  effective: EffectiveDeclarative,
  imageId: string,
) {
  if (policyValue(effective, "allowed_images_settings.state") !== "enabled") return undefined;
  const provider = imageProvider(aws, imageId);
  if (provider === accountId) return undefined;
  const allowed = criteriaOf(effective).some(
    (c) =>
      [...c.keys()].every((k) => k === "allowed_image_providers") &&
      provider !== undefined &&
      providersOf(c).includes(provider),
  );
  if (allowed) return undefined;
  return declarativeDenial(
    effective,
    `image ${imageId} (provider ${provider ?? "unknown"}) is not allowed by the Allowed AMIs settings`,
  );
}

export function getAllowedImagesSettings(
  store: StateStore,
  who: WireCaller,
  params: URLSearchParams,
): string {
  return ec2SettingCall(store, who, "GetAllowedImagesSettings", null, params, (effective) => {
    const policy = policyValue(effective, "allowed_images_settings.state");
    const criteria = criteriaOf(effective)
      .map(
        (c) =>
          `<item><imageProviderSet>${providersOf(c)
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
