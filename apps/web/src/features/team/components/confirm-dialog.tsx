import { type ReactNode, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { teamErrorText } from "../team-errors";

/**
 * Asks before a team change that cannot be undone, then makes it. A refusal from the server is
 * shown in the dialog, next to what was asked, so the person can act on it without losing the
 * context.
 */
export function ConfirmTeamChange<T>({
  target,
  title,
  description,
  confirmLabel,
  pending,
  change,
  onClose,
}: {
  /** What the change is about; the dialog is open while there is one. */
  target: T | null;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  change: (target: T) => Promise<unknown>;
  onClose: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (target === null) return;
    try {
      await change(target);
      close();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && close()}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pending={pending}
      destructive
      onConfirm={confirm}
    >
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {teamErrorText(error)}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
