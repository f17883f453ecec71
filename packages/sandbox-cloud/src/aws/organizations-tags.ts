import type { AwsState } from "../state/model";
import { AwsError } from "./common";
import { findTarget } from "./organization-tree";
import { type OrganizationsInput, paged, required } from "./organizations-input";

export const TAG_ACTIONS = new Set(["TagResource", "UntagResource", "ListTagsForResource"]);

/** A resource may carry at most 50 tags (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_tagging.html). */
const MAX_TAGS = 50;

/**
 * Tags as Organizations takes them: `[{Key, Value}]`, each key 1 to 128 characters and not in the
 * reserved `aws:` namespace, each value 0 to 256 (https://docs.aws.amazon.com/organizations/latest/APIReference/API_Tag.html).
 */
export function readTags(input: OrganizationsInput, key = "Tags"): Record<string, string> {
  const list = input[key];
  if (list === undefined) return {};
  if (!Array.isArray(list))
    throw new AwsError("InvalidInputException", `${key} must be a list of tags.`, 400, {
      Reason: "INVALID_INPUT",
    });
  const tags: Record<string, string> = {};
  for (const tag of list as { Key?: unknown; Value?: unknown }[]) {
    const k = tag?.Key;
    const v = tag?.Value;
    if (typeof k !== "string" || k.length < 1 || k.length > 128 || typeof v !== "string" || v.length > 256)
      throw new AwsError(
        "InvalidInputException",
        "Each tag needs a key of 1 to 128 characters and a value of at most 256 characters.",
        400,
        { Reason: "INVALID_INPUT" },
      );
    if (/^aws:/i.test(k))
      throw new AwsError(
        "InvalidInputException",
        "Tag keys can't begin with the reserved prefix aws:.",
        400,
        {
          Reason: "INVALID_INPUT",
        },
      );
    tags[k] = v;
  }
  return tags;
}

function checkCount(tags: Record<string, string>) {
  if (Object.keys(tags).length > MAX_TAGS)
    throw new AwsError(
      "ConstraintViolationException",
      `You have exceeded the maximum number of tags (${MAX_TAGS}) allowed on this resource.`,
      400,
      { Reason: "MAX_TAG_LIMIT_EXCEEDED" },
    );
}

/** Stores the tags a resource is created with (CreatePolicy `Tags`). */
export function setInitialTags(aws: AwsState, resourceId: string, tags: Record<string, string>) {
  checkCount(tags);
  aws.tags ??= {};
  if (Object.keys(tags).length > 0) aws.tags[resourceId] = tags;
  else delete aws.tags[resourceId];
}

export function tagsOf(aws: AwsState, resourceId: string): Record<string, string> {
  return aws.tags?.[resourceId] ?? {};
}

/** The taggable resource a ResourceId names: an account, OU, root or policy (any type). */
function taggable(aws: AwsState, id: string): string {
  if (aws.policies.some((p) => p.id === id) || findTarget(aws, id)) return id;
  throw new AwsError(
    "TargetNotFoundException",
    "We can't find a root, OU, account, or policy with the ResourceId that you specified.",
  );
}

/**
 * TagResource, UntagResource and ListTagsForResource
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_TagResource.html): a tag
 * written again replaces its value; untagging an absent key is no error.
 */
export function handleTagAction(
  aws: AwsState,
  action: string,
  input: OrganizationsInput,
  changed: () => void,
): unknown {
  const id = taggable(aws, required(input, "ResourceId"));
  if (action === "ListTagsForResource")
    return paged(
      Object.entries(tagsOf(aws, id)).map(([Key, Value]) => ({ Key, Value })),
      input,
      "Tags",
    );
  if (action === "TagResource") {
    const added = readTags(input);
    if (Object.keys(added).length === 0)
      throw new AwsError("InvalidInputException", "Tags must list at least one tag.", 400, {
        Reason: "INPUT_REQUIRED",
      });
    setInitialTags(aws, id, { ...tagsOf(aws, id), ...added });
  } else {
    const keys = input.TagKeys;
    if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== "string"))
      throw new AwsError("InvalidInputException", "TagKeys must list the keys to remove.", 400, {
        Reason: "INPUT_REQUIRED",
      });
    const kept = { ...tagsOf(aws, id) };
    for (const key of keys as string[]) delete kept[key];
    setInitialTags(aws, id, kept);
  }
  changed();
  return {};
}
