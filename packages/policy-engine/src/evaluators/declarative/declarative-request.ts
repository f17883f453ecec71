import { imageViolations } from "./declarative-images";
import type { EffectiveDeclarative } from "./declarative-merge";

/**
 * An EC2 request as a declarative policy sees it: the API action and the request parameters it
 * governs, named as on EC2's Query API (e.g. `MetadataOptions.HttpTokens`,
 * `LaunchPermission.Add.1.Group`). `ImageProvider` on RunInstances names the launched image's
 * provider: `amazon`, `aws-marketplace`, `aws-backup-vault` or the owning account id. `account` is
 * the account making the request, where known: its own AMIs are always allowed
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html).
 */
export interface DeclarativeRequest {
  action: string;
  parameters: Readonly<Record<string, string>>;
  account?: string;
}

/**
 * The account-level APIs that change each attribute. Once a declarative policy sets an attribute,
 * "account administrators will not be able to modify the value of the service attribute at the
 * individual account level"
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html,
 * "Considerations"): these calls are refused whatever value they ask for.
 */
const SETTING_APIS: Record<string, string> = {
  "ec2:ModifyVpcBlockPublicAccessOptions": "vpc_block_public_access.internet_gateway_block.mode",
  "ec2:EnableSerialConsoleAccess": "serial_console_access.status",
  "ec2:DisableSerialConsoleAccess": "serial_console_access.status",
  "ec2:EnableImageBlockPublicAccess": "image_block_public_access.state",
  "ec2:DisableImageBlockPublicAccess": "image_block_public_access.state",
  "ec2:EnableAllowedImagesSettings": "allowed_images_settings.state",
  "ec2:DisableAllowedImagesSettings": "allowed_images_settings.state",
  "ec2:ReplaceImageCriteriaInAllowedImagesSettings": "allowed_images_settings.state",
  "ec2:ModifyInstanceMetadataDefaults": "instance_metadata_defaults",
  "ec2:EnableSnapshotBlockPublicAccess": "snapshot_block_public_access.state",
  "ec2:DisableSnapshotBlockPublicAccess": "snapshot_block_public_access.state",
};

const setting = (effective: EffectiveDeclarative, path: string) => {
  const v = effective.get(path);
  return v === undefined || v === "no_preference" ? undefined : String(v);
};

function settingViolation(effective: EffectiveDeclarative, action: string): string | undefined {
  const path = Object.entries(SETTING_APIS).find(([api]) => api.toLowerCase() === action)?.[1];
  if (!path) return undefined;
  const set = [...effective.keys()].some(
    (key) => key === path || key.startsWith(`${path}.`) || path.startsWith(`${key}.`),
  );
  return set ? `${path} is set by a declarative policy and cannot be changed in the account` : undefined;
}

/**
 * Instance metadata defaults on RunInstances. Where AWS applies the policy's value as the
 * instance's default, this is stricter: a request that does not state the value the policy sets
 * (e.g. no `HttpTokens=required` when `http_tokens` is `required`) is refused, so the guardrail is
 * visible at the call. `no_preference` (and a hop limit of -1) sets nothing.
 */
function metadataViolations(effective: EffectiveDeclarative, p: DeclarativeRequest["parameters"]): string[] {
  const imds = (field: string) => setting(effective, `instance_metadata_defaults.${field}`);
  const violations: string[] = [];
  const tokens = imds("http_tokens");
  const requested = p["MetadataOptions.HttpTokens"];
  if (tokens === "required" && requested !== "required")
    violations.push("MetadataOptions.HttpTokens must be required");
  if (tokens === "optional" && requested === "required")
    violations.push("MetadataOptions.HttpTokens must be optional");
  const endpoint = imds("http_endpoint");
  if (endpoint && (p["MetadataOptions.HttpEndpoint"] ?? "enabled") !== endpoint)
    violations.push(`MetadataOptions.HttpEndpoint must be ${endpoint}`);
  const tags = imds("instance_metadata_tags");
  if (tags && (p["MetadataOptions.InstanceMetadataTags"] ?? "disabled") !== tags)
    violations.push(`MetadataOptions.InstanceMetadataTags must be ${tags}`);
  const hops = imds("http_put_response_hop_limit");
  if (hops && hops !== "-1" && Number(p["MetadataOptions.HttpPutResponseHopLimit"] ?? 1) > Number(hops))
    violations.push(`MetadataOptions.HttpPutResponseHopLimit must be at most ${hops}`);
  return violations;
}

function publicSharing(p: DeclarativeRequest["parameters"], permission: string): boolean {
  return Object.entries(p).some(
    ([key, value]) => new RegExp(`^${permission}\\.Add\\.\\d+\\.Group$`).test(key) && value === "all",
  );
}

/**
 * What the account's effective declarative policy refuses in a request, in the words EC2's
 * refusal carries after the policy's `exception_message`; empty when the request is allowed.
 * Attributes are those of the syntax page
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
 * Actions are matched without regard to case, as IAM matches them
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html).
 */
export function declarativeViolations(
  effective: EffectiveDeclarative,
  request: DeclarativeRequest,
): string[] {
  if (effective.size === 0) return [];
  const p = request.parameters;
  const action = request.action.toLowerCase();
  const setting_ = settingViolation(effective, action);
  if (setting_) return [setting_];
  switch (action) {
    case "ec2:runinstances":
      return [...metadataViolations(effective, p), ...imageViolations(effective, p, request.account)];
    case "ec2-instance-connect:sendserialconsolesshpublickey":
      return setting(effective, "serial_console_access.status") === "disabled"
        ? ["EC2 serial console access is disabled"]
        : [];
    case "ec2:modifyimageattribute": {
      const state = setting(effective, "image_block_public_access.state");
      return state === "block_new_sharing" && publicSharing(p, "LaunchPermission")
        ? ["images cannot be shared publicly (image block public access)"]
        : [];
    }
    case "ec2:modifysnapshotattribute": {
      const state = setting(effective, "snapshot_block_public_access.state");
      return (state === "block_new_sharing" || state === "block_all_sharing") &&
        publicSharing(p, "CreateVolumePermission")
        ? ["snapshots cannot be shared publicly (snapshot block public access)"]
        : [];
    }
    case "ec2:createvpcblockpublicaccessexclusion":
      return setting(effective, "vpc_block_public_access.internet_gateway_block.exclusions_allowed") ===
        "disabled"
        ? ["VPC block public access exclusions are not allowed"]
        : [];
    default:
      return [];
  }
}
