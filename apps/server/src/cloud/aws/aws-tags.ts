import {
  ListPoliciesCommand,
  ListTagsForResourceCommand,
  TagResourceCommand,
} from "@aws-sdk/client-organizations";
import type { AwsClients } from "./aws-clients";

/**
 * The tag on every SCP Palisade creates. The connector role's permissions policy allows
 * UpdatePolicy, DeletePolicy, AttachPolicy and DetachPolicy only on policies carrying it
 * (`aws:ResourceTag/palisade:managed`), so Palisade cannot change the organisation's other SCPs.
 */
export const MANAGED_TAG = { Key: "palisade:managed", Value: "true" } as const;

/** Names of the SCPs Palisade writes: packs (`palisade-<target>-<slot>`) and older per-bundle ones. */
const PALISADE_NAME = /^palisade-/;

/**
 * Tags Palisade's SCPs that lack the tag (created before Palisade tagged them), so the
 * tag-scoped permissions policy lets Palisade keep managing them. Returns how many were tagged.
 * `known` holds the SCPs already seen with the tag, so a later sync reads the tags of new ones only.
 */
export async function tagManagedScps(
  { organizations, allPages, call }: AwsClients,
  known: Set<string>,
): Promise<number> {
  const policies = await allPages(async (NextToken) => {
    const out = await organizations.send(
      new ListPoliciesCommand({ Filter: "SERVICE_CONTROL_POLICY", NextToken }),
    );
    return { items: out.Policies ?? [], next: out.NextToken };
  });
  let tagged = 0;
  for (const policy of policies) {
    if (policy.AwsManaged || !policy.Id || known.has(policy.Id) || !PALISADE_NAME.test(policy.Name ?? ""))
      continue;
    const id = policy.Id;
    const tags = await allPages(async (NextToken) => {
      const out = await organizations.send(new ListTagsForResourceCommand({ ResourceId: id, NextToken }));
      return { items: out.Tags ?? [], next: out.NextToken };
    });
    if (!tags.some((t) => t.Key === MANAGED_TAG.Key && t.Value === MANAGED_TAG.Value)) {
      await call(() =>
        organizations.send(new TagResourceCommand({ ResourceId: id, Tags: [{ ...MANAGED_TAG }] })),
      );
      tagged += 1;
    }
    known.add(id);
  }
  return tagged;
}
