import { CheckCircle2Icon, ClockIcon, XCircleIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { type CreatedWaiverJson, useOwnWaiver } from "../api/waiver-request-queries";
import { waiverOutcomeOf } from "../waiver-outcome";
import { WaiverPropagatingNotice } from "./waiver-propagating-notice";

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
            <h2 className="text-xl font-semibold">Waiver active: you can proceed now</h2>
            <p className="text-sm text-muted-foreground">
              {outcome.scope ? (
                <>
                  Applies to <span title={outcome.scope}>{scopeName || outcome.scope}</span>.{" "}
                </>
              ) : (
                ""
              )}
              {outcome.expiresAt ? `Expires ${outcome.expiresAt}.` : ""}
            </p>
          </>
        )}
        {outcome.kind === "propagating" && (
          <WaiverPropagatingNotice outcome={outcome} scopeName={scopeName} />
        )}
        {outcome.kind === "pending" && (
          <>
            <ClockIcon className="size-12 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-xl font-semibold">Waiver pending</h2>
            <p className="text-sm text-muted-foreground" role="status">
              Waiting for approval by someone with permission to approve waivers in {outcome.tenantName}. This
              page updates when it is decided.
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
            <p className="text-sm text-muted-foreground">The waiver no longer applies.</p>
          </>
        )}
        <Button variant="outline" className="mt-2" onClick={onAnother}>
          Request another waiver
        </Button>
      </CardContent>
    </Card>
  );
}
