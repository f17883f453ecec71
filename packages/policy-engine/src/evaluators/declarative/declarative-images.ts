import type { EffectiveDeclarative } from "./declarative-merge";

/**
 * Allowed AMIs (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-allowed-amis.html): with the
 * setting `enabled`, only AMIs matching one of the image criteria can be used to launch instances;
 * `audit_mode` and `disabled` restrict nothing; the account's own AMIs are always allowed. A
 * criterion's providers are `amazon`, `aws-marketplace`, `aws-backup-vault`, account IDs or `none`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ImageCriterion.html), set by a
 * declarative policy's `allowed_images_settings`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
 *
 * The evaluation is never kinder than EC2's: a criterion is evaluated only on its providers, so one
 * that states anything else (names, product codes, dates) matches no image, since a request states
 * none of those; an image whose provider the request does not state matches no criterion.
 */
const PREFIX = "allowed_images_settings.image_criteria.";

export interface ImageCriterion {
  providers: string[];
  /** Whether the criterion states nothing but its providers (otherwise it matches no image). */
  onlyProviders: boolean;
}

/** The image criteria the effective policy sets, in their order (criteria_1, criteria_2, …). */
export function imageCriteria(effective: EffectiveDeclarative): ImageCriterion[] {
  const byName = new Map<string, Map<string, unknown>>();
  for (const [path, value] of effective) {
    if (!path.startsWith(PREFIX)) continue;
    const [name = "", ...field] = path.slice(PREFIX.length).split(".");
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(field.join("."), value);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([, criterion]) => {
      const v = criterion.get("allowed_image_providers");
      return {
        providers: Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [],
        onlyProviders: [...criterion.keys()].every((k) => k === "allowed_image_providers"),
      };
    });
}

/**
 * A launch's image under the Allowed AMIs settings: `ImageId` and `ImageProvider` are the request's
 * parameters, `account` the launching account (whose own images are always allowed).
 */
export function imageViolations(
  effective: EffectiveDeclarative,
  parameters: Readonly<Record<string, string>>,
  account: string | undefined,
): string[] {
  if (effective.get("allowed_images_settings.state") !== "enabled") return [];
  const provider = parameters.ImageProvider;
  if (provider === undefined) return [refusal(parameters.ImageId, provider)];
  if (provider === account) return [];
  const allowed = imageCriteria(effective).some((c) => c.onlyProviders && c.providers.includes(provider));
  return allowed ? [] : [refusal(parameters.ImageId, provider)];
}

const refusal = (imageId: string | undefined, provider: string | undefined) =>
  `image ${imageId ?? "(unstated)"} (provider ${provider ?? "unknown"}) is not allowed by the Allowed AMIs settings`;
