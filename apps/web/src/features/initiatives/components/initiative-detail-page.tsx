import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { initiativeTabs } from "@/routes/_authenticated/initiatives/$initiativeId/-search";

type InitiativeTab = (typeof initiativeTabs)[number];

const tabText: Record<InitiativeTab, { label: string; empty: string; description: string }> = {
  policies: {
    label: "Policies",
    empty: "No policies in this initiative yet",
    description:
      "The policy definitions that implement this initiative's clauses are listed here, with their state in your tenant.",
  },
  covered: {
    label: "Covered",
    empty: "No clauses covered yet",
    description:
      "Clauses covered by a deployed policy are listed here; deploy the initiative's policies to close the gaps.",
  },
  description: {
    label: "Description",
    empty: "No description available",
    description: "The framework's name, version and purpose appear here.",
  },
};

export function InitiativeDetailPage({
  initiativeId,
  tab,
  clause,
  policy,
}: {
  initiativeId: string;
  tab: InitiativeTab;
  clause?: string;
  policy?: string;
}) {
  const navigate = useNavigate({ from: "/initiatives/$initiativeId/" });
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-2 w-fit" asChild>
        <Link to="/initiatives">
          <ArrowLeftIcon />
          All initiatives
        </Link>
      </Button>
      <PageHeader
        title={`Initiative ${initiativeId}`}
        description="The framework's clauses, the guardrails that implement them and how much of it your deployed policies cover."
      />
      {(clause || policy) && (
        <ul className="flex flex-wrap gap-2" aria-label="Selection">
          {clause && (
            <li>
              <Badge variant="secondary">Clause: {clause}</Badge>
            </li>
          )}
          {policy && (
            <li>
              <Badge variant="secondary">Policy: {policy}</Badge>
            </li>
          )}
        </ul>
      )}
      <Tabs
        value={tab}
        onValueChange={(value) =>
          void navigate({ search: (prev) => ({ ...prev, tab: value as InitiativeTab }) })
        }
      >
        <TabsList>
          {initiativeTabs.map((value) => (
            <TabsTrigger key={value} value={value}>
              {tabText[value].label}
            </TabsTrigger>
          ))}
        </TabsList>
        {initiativeTabs.map((value) => (
          <TabsContent key={value} value={value}>
            <EmptyState image="list" title={tabText[value].empty} description={tabText[value].description} />
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}
