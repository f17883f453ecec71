import { CheckIcon, LoaderIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { formatDuration, type WaiverRowActionSet } from "../waiver-row";

export type Decision = "approve" | "reject" | "cancel";

export interface WaiverRowSubject {
  requesterName: string;
  policyKey: string;
  /** The exempted scope, resource or principal by name; empty for every scope of the policy. */
  targetName: string;
  durationSeconds: bigint;
  active: boolean;
}

/** What each decision does, said before it is taken. */
export function decisionText(decision: Decision, subject: WaiverRowSubject) {
  const whose = subject.requesterName ? `${subject.requesterName}'s` : "this";
  const where = subject.targetName ? ` on ${subject.targetName}` : " on every scope of the policy";
  switch (decision) {
    case "approve":
      return {
        title: `Approve ${whose} waiver?`,
        description: `Access is granted: ${subject.policyKey} stops denying the actions it matches${where} for ${formatDuration(subject.durationSeconds)}, from when the cloud applies the exemption.`,
        confirmLabel: "Approve",
      };
    case "reject":
      return {
        title: `Reject ${whose} waiver?`,
        description: `The request is refused for good: ${subject.policyKey} keeps denying the actions it matches${where}. A new request is needed to ask again.`,
        confirmLabel: "Reject",
      };
    case "cancel":
      return {
        title: `Cancel ${whose} waiver?`,
        description: `The waiver for ${subject.policyKey}${where} ends now: ${subject.active ? "the policy applies again to the actions it matches" : "the request is withdrawn"}.`,
        confirmLabel: "Cancel waiver",
      };
  }
}

/**
 * The decisions on one waiver, each confirmed first. Only the decisions the caller may take are
 * offered; a reviewer who may not decide on their own request is told why instead.
 */
export function WaiverRowActions({
  actions,
  subject,
  busy,
  onDecide,
}: {
  actions: WaiverRowActionSet;
  subject: WaiverRowSubject;
  busy: { update: boolean; cancel: boolean };
  onDecide: (decision: Decision) => void;
}) {
  const [asking, setAsking] = useState<Decision | null>(null);
  const text = asking ? decisionText(asking, subject) : null;
  const disabled = busy.update || busy.cancel;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {actions.note && (
        <p className="max-w-[12rem] text-right text-xs text-muted-foreground">{actions.note}</p>
      )}
      {actions.approve && (
        <Button size="sm" variant="outline" disabled={disabled} onClick={() => setAsking("approve")}>
          {busy.update ? <LoaderIcon className="animate-spin" /> : <CheckIcon />}
          Approve
        </Button>
      )}
      {actions.reject && (
        <Button size="sm" variant="outline" disabled={disabled} onClick={() => setAsking("reject")}>
          <XIcon />
          Reject
        </Button>
      )}
      {actions.cancel && (
        <Button size="sm" variant="ghost" disabled={disabled} onClick={() => setAsking("cancel")}>
          {busy.cancel && <LoaderIcon className="animate-spin" />}
          Cancel waiver
        </Button>
      )}
      {text && asking && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setAsking(null)}
          title={text.title}
          description={text.description}
          confirmLabel={text.confirmLabel}
          destructive={asking !== "approve"}
          onConfirm={() => {
            setAsking(null);
            onDecide(asking);
          }}
        />
      )}
    </div>
  );
}
