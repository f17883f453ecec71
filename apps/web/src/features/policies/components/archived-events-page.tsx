import { DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { bundleQuery } from "../api/policy-queries";

/**
 * The events a deleted or archived policy recorded, kept for audit and history. The list itself
 * is the events feature's, handed in by the route.
 */
export function ArchivedEventsPage({
  policyId,
  eventType,
  events,
}: {
  policyId: string;
  eventType: "drift" | "prevention";
  events: ReactNode;
}) {
  const query = useQuery(bundleQuery(policyId));
  const bundle = query.data?.bundle?.bundle;
  const deleted = bundle?.status === DeploymentStatus.DELETED;
  const name = bundle?.name ?? "this policy";
  const kind = eventType === "drift" ? "drift" : "prevention";
  const other = kind === "drift" ? "prevention" : "drift";
  return (
    <>
      {/* A long policy name wraps rather than pushing the page wider than a phone. */}
      <Button
        variant="ghost"
        size="sm"
        className="-ml-2 h-auto w-fit max-w-full whitespace-normal py-1 text-left"
        asChild
      >
        <Link
          to="/policies/$policyId"
          params={{ policyId }}
          search={{ tab: kind === "drift" ? "drifts" : "events" }}
        >
          <ArrowLeftIcon />
          <span className="min-w-0 [overflow-wrap:anywhere]">Back to {name}</span>
        </Link>
      </Button>
      <PageHeader
        title={`Archived ${kind} events`}
        description={
          <>
            The {kind} events of {bundle ? <strong>{bundle.name}</strong> : "the policy"}
            {bundle && <span className="font-mono"> ({bundle.key})</span>}, kept for audit and history after
            the policy was deleted or archived.
          </>
        }
        actions={
          <Button variant="outline" size="sm" asChild>
            <Link to="/policies/archived" search={{ policyId, eventType: other }}>
              {other === "drift" ? "Drift events" : "Prevention events"}
            </Link>
          </Button>
        }
      />
      {deleted && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Badge variant="secondary">Deleted</Badge>
          This policy was deleted: its guardrail is no longer in the cloud.
        </p>
      )}
      {events}
    </>
  );
}
