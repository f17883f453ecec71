import { HourglassIcon } from "lucide-react";
import { CloudName } from "@/components/cloud-name";
import { aboutMinutes } from "@/lib/propagation";
import type { WaiverOutcome } from "../waiver-outcome";

/**
 * An approved waiver the cloud does not honour yet (an Azure exemption takes effect minutes after
 * it is written): the requester waits instead of retrying into the same denial.
 */
export function WaiverPropagatingNotice({
  outcome,
  scopeName,
}: {
  outcome: Extract<WaiverOutcome, { kind: "propagating" }>;
  scopeName?: string;
}) {
  return (
    <>
      <HourglassIcon className="size-12 text-warning" aria-hidden="true" />
      <h2 className="text-xl font-semibold">
        Waiver approved: active in {outcome.activeAt ? aboutMinutes(outcome.activeAt) : "a few minutes"}
      </h2>
      <p className="text-sm text-muted-foreground" role="status">
        Azure applies a new exemption within minutes; until then the action is still blocked. This page
        updates when the waiver is active.{" "}
        {outcome.scope ? (
          <>
            Applies to <CloudName name={scopeName || outcome.scope.name} id={outcome.scope.id} />.{" "}
          </>
        ) : (
          ""
        )}
        {outcome.expiresAt ? `Expires ${outcome.expiresAt}.` : ""}
      </p>
    </>
  );
}
