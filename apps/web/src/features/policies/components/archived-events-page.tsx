import { Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";

export function ArchivedEventsPage({
  policyId,
  eventType,
}: {
  policyId: string;
  eventType: "drift" | "prevention";
}) {
  const kind = eventType === "drift" ? "drift" : "prevention";
  return (
    <>
      <Button variant="ghost" size="sm" className="-ml-2 w-fit" asChild>
        <Link to="/policies/$policyId" params={{ policyId }}>
          <ArrowLeftIcon />
          Back to policy
        </Link>
      </Button>
      <PageHeader
        title={`Archived ${kind} events`}
        description={`The ${kind} events of policy ${policyId} that were archived, kept for audit and history.`}
      />
      <EmptyState
        image="table"
        title={`No archived ${kind} events`}
        description={`When ${kind} events of this policy are archived they are listed here with when and where they occurred.`}
      />
    </>
  );
}
