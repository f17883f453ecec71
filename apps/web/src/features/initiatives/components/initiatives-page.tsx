import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { initiativesQuery } from "../api/initiative-queries";
import { frameworkLine } from "../framework-line";
import { CoverageBar } from "./coverage-bar";

export function InitiativesPage() {
  const list = useQuery(initiativesQuery());
  return (
    <>
      <PageHeader
        title="Initiatives"
        description="Compliance frameworks such as CIS, NIST SP 800-53, PCI DSS, ISO/IEC 27001 and SOC 2, with the clauses your deployed guardrails cover and the gaps that remain."
      />
      {list.isPending ? (
        <div
          className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
          role="status"
          aria-label="Loading initiatives"
        >
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
        </div>
      ) : list.isError ? (
        <EmptyState
          image="list"
          title="Initiatives could not be loaded"
          description={describeError(list.error).message}
          action={
            <Button variant="outline" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      ) : list.data.items.length === 0 ? (
        <EmptyState
          image="list"
          title="No initiatives yet"
          description="Frameworks from the policy catalogue appear here with their coverage; open one to see which clauses are covered and which policies would close the gaps."
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Initiatives">
          {list.data.items.map((initiative) => (
            <li key={initiative.slug} data-testid="initiative-card">
              <Link
                to="/initiatives/$initiativeId"
                params={{ initiativeId: initiative.slug }}
                className="group block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-ring"
              >
                <Card className="h-full transition-colors group-hover:border-primary/40">
                  <CardHeader>
                    <CardTitle className="text-base">{initiative.name}</CardTitle>
                    <CardDescription className="flex flex-wrap gap-1">
                      {frameworkLine(initiative)}
                      {initiative.providers.map((p) => (
                        <Badge key={p} variant="outline">
                          {p === CloudProvider.AWS ? "AWS" : "Azure"}
                        </Badge>
                      ))}
                    </CardDescription>
                  </CardHeader>
                  <CardContent className="space-y-2">
                    <CoverageBar initiative={initiative} />
                    <p className="text-xs text-muted-foreground tabular-nums">
                      {initiative.installedPoliciesCount} of {initiative.policiesCount} policies deployed
                    </p>
                  </CardContent>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
