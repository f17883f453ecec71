import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

export interface CreatePolicyContext {
  recommendationId?: string;
  recommendationTitle?: string;
  initiativeSlug?: string;
  initiativeTitle?: string;
  provider?: "Azure" | "AWS";
  defaultSelectedPolicies?: string[];
  policyKey?: string;
}

export function CreatePolicyPage({ context }: { context: CreatePolicyContext }) {
  const origin = context.recommendationTitle ?? context.recommendationId;
  const initiative = context.initiativeTitle ?? context.initiativeSlug;
  const hasContext = !!(
    origin ||
    initiative ||
    context.provider ||
    context.policyKey ||
    context.defaultSelectedPolicies?.length
  );
  return (
    <>
      <PageHeader
        title="Create policy"
        description="Choose policy definitions from the catalogue, set their parameters, pick the scopes and deploy them in alert mode first or straight to prevent."
      />
      {hasContext && (
        <Card>
          <CardHeader className="pb-3">
            <CardTitle className="text-base">Starting point</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              {origin && (
                <div>
                  <dt className="text-muted-foreground">Recommendation</dt>
                  <dd className="font-medium">{origin}</dd>
                </div>
              )}
              {initiative && (
                <div>
                  <dt className="text-muted-foreground">Initiative</dt>
                  <dd className="font-medium">{initiative}</dd>
                </div>
              )}
              {context.provider && (
                <div>
                  <dt className="text-muted-foreground">Cloud</dt>
                  <dd>
                    <Badge variant="outline">{context.provider}</Badge>
                  </dd>
                </div>
              )}
              {context.policyKey && (
                <div>
                  <dt className="text-muted-foreground">Policy key</dt>
                  <dd className="font-mono font-medium">{context.policyKey}</dd>
                </div>
              )}
              {!!context.defaultSelectedPolicies?.length && (
                <div className="sm:col-span-2">
                  <dt className="text-muted-foreground">Preselected definitions</dt>
                  <dd className="mt-1 flex flex-wrap gap-1.5">
                    {context.defaultSelectedPolicies.map((slug) => (
                      <Badge key={slug} variant="secondary">
                        {slug}
                      </Badge>
                    ))}
                  </dd>
                </div>
              )}
            </dl>
          </CardContent>
        </Card>
      )}
      <EmptyState
        image="search"
        title="No policy definitions to choose from"
        description="The catalogue's AWS and Azure definitions appear here with their category, scores and frameworks; select one or more to configure and deploy."
      />
    </>
  );
}
