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
import type { WaiverFailure } from "../waiver-failure";

export function WaiverFailureDialog({ failure, onClose }: { failure: WaiverFailure; onClose: () => void }) {
  const { title, message } =
    failure.kind === "permission-denied"
      ? { title: "You Can't Request This Waiver", message: failure.message }
      : failure.kind === "product"
        ? failure.text
        : {
            title: "Couldn't Validate Policy Key",
            message: "Please validate Policy Key input and try again.",
          };
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent showClose={false} role="alertdialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{message}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Back to Form</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
