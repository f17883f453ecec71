import { Fragment } from "react";
import { CloudName } from "@/components/cloud-name";
import type { CreatePolicyContext } from "../policies-search";

/**
 * What the create page was opened from, shown above the form so the user knows why it is
 * prefilled. Suggested policies read by their catalogue titles (`titles`, by slug), the slug on hover.
 */
export function StartingPoint({
  context,
  titles,
}: {
  context: CreatePolicyContext;
  titles: ReadonlyMap<string, string>;
}) {
  const origin = context.recommendationTitle ?? context.recommendationId;
  const initiative = context.initiativeTitle ?? context.initiativeSlug;
  if (!(origin || initiative || context.defaultSelectedPolicies?.length || context.policyKey)) return null;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" aria-label="Starting point">
      {origin && (
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Recommendation</dt>
          <dd className="font-medium">{origin}</dd>
        </div>
      )}
      {initiative && (
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Initiative</dt>
          <dd className="font-medium">{initiative}</dd>
        </div>
      )}
      {context.defaultSelectedPolicies && context.defaultSelectedPolicies.length > 0 && (
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Suggested</dt>
          <dd className="font-medium">
            {context.defaultSelectedPolicies.map((slug, index) => (
              <Fragment key={slug}>
                {index > 0 && ", "}
                <CloudName name={titles.get(slug)} id={slug} />
              </Fragment>
            ))}
          </dd>
        </div>
      )}
      {context.policyKey && (
        <div className="flex gap-1">
          <dt className="text-muted-foreground">From policy key</dt>
          <dd className="font-mono">{context.policyKey}</dd>
        </div>
      )}
    </dl>
  );
}
