import { Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Permission, usePermissions } from "@/lib/permissions";
import { RecommendationsNav } from "./recommendations-nav";

export function RecommendationsPage({
  archived,
  recommendationId,
}: {
  archived: boolean;
  recommendationId?: string;
}) {
  const permissions = usePermissions();
  return (
    <>
      <PageHeader
        title={archived ? "Archived recommendations" : "Recommendations"}
        description={
          archived
            ? "Recommendations your team set aside. Restore one to act on it again."
            : "Guardrails worth deploying, based on what happens in your clouds and the frameworks you follow. Install one to turn it into a policy."
        }
        actions={
          permissions.has(Permission.RECOMMENDATIONS_WRITE) && (
            <Button asChild>
              <Link to="/recommendations/addnewmanually">
                <PlusIcon />
                Add manually
              </Link>
            </Button>
          )
        }
      />
      <RecommendationsNav />
      {recommendationId && (
        <Alert>
          <AlertTitle>Recommendation {recommendationId}</AlertTitle>
          <AlertDescription>This recommendation is not in the list below.</AlertDescription>
        </Alert>
      )}
      <EmptyState
        image="list"
        title={archived ? "No archived recommendations" : "No recommendations yet"}
        description={
          archived
            ? "Recommendations you archive are kept here so nothing is lost."
            : "Connect a cloud so Palisade can suggest guardrails for it, or add a recommendation manually."
        }
      />
    </>
  );
}
