import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { PolicyWaiversTab } from "@/features/waivers/components/policy-waivers-tab";
import { policyTabs } from "@/routes/_authenticated/policies/$policyId/-search";

type PolicyTab = (typeof policyTabs)[number];

const tabText: Record<PolicyTab, { label: string; empty: string; description: string }> = {
  overview: {
    label: "Overview",
    empty: "No deployment details yet",
    description:
      "The policy's definition, parameters, mode, scopes and deployment status per scope appear here.",
  },
  events: {
    label: "Events",
    empty: "No events for this policy",
    description:
      "Actions this policy prevented or flagged are listed here as they are collected from the cloud.",
  },
  drifts: {
    label: "Drifts",
    empty: "No drifts detected",
    description: "Resources that no longer comply with this policy are listed here after each evaluation.",
  },
  waivers: {
    label: "Waivers",
    empty: "No waivers for this policy",
    description: "Waivers requested with this policy's key are listed here with their status and expiry.",
  },
};

export function PolicyDetailPage({
  policyId,
  tab = "overview",
  eventType,
}: {
  policyId: string;
  tab?: PolicyTab;
  eventType?: number;
}) {
  const navigate = useNavigate({ from: "/policies/$policyId/" });
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-2 w-fit" asChild>
        <Link to="/policies">
          <ArrowLeftIcon />
          All policies
        </Link>
      </Button>
      <PageHeader
        title={`Policy ${policyId}`}
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
              {tabText[value].label}
            </TabsTrigger>
          ))}
        </TabsList>
        {policyTabs.map((value) => (
          <TabsContent key={value} value={value}>
            {value === "waivers" ? (
              <PolicyWaiversTab policyId={policyId} />
            ) : (
              <EmptyState
                image="table"
                title={tabText[value].empty}
                description={
                  eventType !== undefined && value === "events"
                    ? `${tabText[value].description} Showing event type ${eventType}.`
                    : tabText[value].description
                }
              />
            )}
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}
