import { CheckCircle2Icon, ClockIcon, XCircleIcon } from "lucide-react";
import { useState } from "react";
import { CloudName } from "@/components/cloud-name";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { type CreatedWaiverJson, useOwnWaiver } from "../api/waiver-request-queries";
import { type WaiverOutcome, waiverOutcomeOf } from "../waiver-outcome";
import { WaiverPropagatingNotice } from "./waiver-propagating-notice";

/** The specification's words once a waiver is requested. */
export const CREATED_TITLE = "Waiver created successfully!";
export const PROCEED_TEXT = "You can now proceed to implement desired action";

/** Status, scope and expiry of a created waiver, beneath the success words. */
function WaiverDetails({ outcome, scopeName }: { outcome: WaiverOutcome; scopeName?: string }) {
  if (outcome.kind !== "active" && outcome.kind !== "pending") return null;
  return (
    <dl
      className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-left text-sm"
      data-testid="waiver-details"
    >
      <dt className="text-muted-foreground">Status</dt>
      <dd>{outcome.kind === "active" ? "Active" : "Pending approval"}</dd>
      <dt className="text-muted-foreground">Scope</dt>
      <dd>
        {outcome.scope ? (
          <CloudName name={scopeName || outcome.scope.name} id={outcome.scope.id} />
        ) : (
          "Every scope of the policy"
        )}
      </dd>
      {outcome.kind === "active" && (
        <>
          <dt className="text-muted-foreground">Expires</dt>
          <dd>{outcome.expiresAt ?? "—"}</dd>
        </>
      )}
    </dl>
  );
}

/** What happened to a submitted waiver: active now, waiting for a reviewer, or decided. */
export function WaiverOutcomeCard({
  created,
  scopeName,
  onAnother,
}: {
  created: CreatedWaiverJson;
  /** The name of the scope chosen on the form; empty for every scope of the policy. */
  scopeName?: string;
  onAnother: () => void;
}) {
  const [since] = useState(() => Date.now());
  const id = created.waiver?.entity?.id;
  const initiallyPending =
    created.waiver?.status === "WAIVER_STATUS_PENDING" ||
    created.waiver?.status === "WAIVER_STATUS_PROPAGATING";
  const own = useOwnWaiver(initiallyPending ? id : undefined, since);
  const waiver = own?.waiver ?? created.waiver ?? {};
  const outcome = waiverOutcomeOf(waiver, own?.tenantName || "this tenant");
  return (
    <Card className="mx-auto max-w-xl" data-testid="waiver-outcome" data-status={outcome.kind}>
      <CardContent className="flex flex-col items-center gap-3 px-6 py-12 text-center">
        {outcome.kind === "active" && (
          <>
            <CheckCircle2Icon className="size-12 text-success" aria-hidden="true" />
            <h2 className="text-xl font-semibold">{CREATED_TITLE}</h2>
            <p className="text-sm text-muted-foreground">{PROCEED_TEXT}</p>
          </>
        )}
        {outcome.kind === "propagating" && (
          <WaiverPropagatingNotice outcome={outcome} scopeName={scopeName} />
        )}
        {outcome.kind === "pending" && (
          <>
            <ClockIcon className="size-12 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-xl font-semibold">{CREATED_TITLE}</h2>
            <p className="text-sm text-muted-foreground" role="status">
              It awaits approval by someone with permission to approve waivers in {outcome.tenantName}: wait
              for it before you proceed. This page updates when it is decided.
            </p>
          </>
        )}
        {outcome.kind === "rejected" && (
          <>
            <XCircleIcon className="size-12 text-destructive" aria-hidden="true" />
            <h2 className="text-xl font-semibold">Waiver rejected</h2>
            <p className="text-sm text-muted-foreground">
              {outcome.reviewer ? `${outcome.reviewer} rejected the request.` : "The request was rejected."}{" "}
              The action stays blocked.
            </p>
          </>
        )}
        {outcome.kind === "closed" && (
          <>
            <XCircleIcon className="size-12 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-xl font-semibold">Waiver {outcome.status.toLowerCase()}</h2>
            <p className="text-sm text-muted-foreground">
              The waiver no longer applies
              {outcome.endedAt
                ? ` (${outcome.status === "CANCELLED" ? "cancelled" : "ended"} ${outcome.endedAt})`
                : ""}
              .
            </p>
          </>
        )}
        {/* The hierarchy's name the server sends first; else the one chosen on the form. */}
        <WaiverDetails outcome={outcome} scopeName={waiver.scopeName || scopeName} />
        <Button variant="outline" className="mt-2" onClick={onAnother}>
          Request another waiver
        </Button>
      </CardContent>
    </Card>
  );
}
