import { DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { bundleQuery } from "../api/policy-queries";
import { type PolicyTab, policyTabs } from "../policies-search";
import { DefinitionOverview } from "./definition-overview";
import { PolicyBundles } from "./policy-bundles";

const tabLabels: Record<PolicyTab, string> = {
  overview: "Overview",
  events: "Events",
  drifts: "Drifts",
  waivers: "Waivers",
};

/** The events one tab of the page lists, and what it says when there are none. */
export interface PolicyEventsView {
  bundleId: string;
  types: EventType[];
  emptyTitle: string;
  emptyDescription: string;
}

/** Where the events of the policy are kept once it is deleted or archived. */
function ArchivedLink({ bundleId, eventType }: { bundleId: string; eventType: "prevention" | "drift" }) {
  return (
    <div className="flex justify-end">
      <Button variant="link" size="sm" asChild>
        <Link to="/policies/archived" search={{ policyId: bundleId, eventType }}>
          Archived {eventType} events
        </Link>
      </Button>
    </div>
  );
}

/** The policy page. Its events and waivers tabs are other features' lists, handed in by the route. */
export function PolicyDetailPage({
  policyId,
  tab = "overview",
  eventType,
  renderEvents,
  waiversTab,
}: {
  policyId: string;
  tab?: PolicyTab;
  eventType?: number;
  renderEvents: (view: PolicyEventsView) => ReactNode;
  waiversTab: ReactNode;
}) {
  const navigate = useNavigate({ from: "/policies/$policyId/" });
  const permissions = usePermissions();
  const canWrite = permissions.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT);
  const query = useQuery(bundleQuery(policyId));
  const bundle = query.data?.bundle?.bundle;
  const bundleId = bundle?.entity?.id ?? "";
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-2 w-fit" asChild>
        <Link to="/policies" search={{ view: "deployed" }}>
          <ArrowLeftIcon />
          All policies
        </Link>
      </Button>
      <PageHeader
        title={bundle?.name ?? (query.isPending ? "Policy" : "Policy not found")}
        description="How this guardrail is deployed, what it prevented, where resources drifted and which waivers were granted."
      />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          void navigate({ search: (prev) => ({ ...prev, tab: value as PolicyTab, eventType: undefined }) })
        }
      >
        <TabsList>
          {policyTabs.map((value) => (
            <TabsTrigger key={value} value={value}>
              {tabLabels[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        {query.isPending ? (
          <Skeleton className="h-48 w-full" />
        ) : query.isError || !bundle ? (
          tab !== "waivers" && (
            <EmptyState
              image="list"
              title="This policy could not be found"
              description={query.isError ? describeError(query.error).message : "It may have been deleted."}
              action={
                <Button variant="outline" asChild>
                  <Link to="/policies">Back to policies</Link>
                </Button>
              }
            />
          )
        ) : (
          <>
            {bundle.status === DeploymentStatus.DELETED && (
              <Alert variant="warning" className="mt-2" data-testid="deleted-policy">
                <AlertTitle>This policy was deleted</AlertTitle>
                <AlertDescription>
                  Its guardrail was removed from the cloud. The parameters below are the ones it was deployed
                  with; its events stay under{" "}
                  <Link
                    to="/policies/archived"
                    search={{ policyId: bundleId, eventType: "prevention" }}
                    className="underline"
                  >
                    archived events
                  </Link>
                  .
                </AlertDescription>
              </Alert>
            )}
            <TabsContent value="overview" className="space-y-4">
              <DefinitionOverview slug={bundle.policySlug} parameters={bundle.parameters} />
              <PolicyBundles slug={bundle.policySlug} currentId={bundleId} canWrite={canWrite} />
            </TabsContent>
            <TabsContent value="events" className="space-y-2">
              <ArchivedLink bundleId={bundleId} eventType="prevention" />
              {renderEvents({
                bundleId,
                types: eventType ? [eventType as EventType] : [],
                emptyTitle: "No events for this policy",
                emptyDescription:
                  "Actions this policy prevented or flagged are listed here as they are collected from the cloud.",
              })}
            </TabsContent>
            <TabsContent value="drifts" className="space-y-2">
              <ArchivedLink bundleId={bundleId} eventType="drift" />
              {renderEvents({
                bundleId,
                types: [EventType.DRIFT, EventType.HISTORICAL_DRIFT],
                emptyTitle: "No drifts detected",
                emptyDescription:
                  "Resources that no longer comply with this policy are listed here after each evaluation.",
              })}
            </TabsContent>
          </>
        )}
        <TabsContent value="waivers">{waiversTab}</TabsContent>
      </Tabs>
    </>
  );
}
