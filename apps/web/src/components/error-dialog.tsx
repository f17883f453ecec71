import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { describeError } from "@/lib/error-text";
import { logger } from "@/lib/logger";

/** Reports a failed operation. Open while `error` is set; closing calls `onClose`. */
export function ErrorDialog({ error, onClose }: { error: unknown; onClose: () => void }) {
  const open = error !== null && error !== undefined;
  useEffect(() => {
    if (open) logger.error("Operation failed", error);
  }, [open, error]);
  const { title, message } = describeError(error);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent showClose={false} role="alertdialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{message}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button>OK</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
