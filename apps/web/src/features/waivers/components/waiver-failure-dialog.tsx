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
  const denied = failure.kind === "permission-denied";
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent showClose={false} role="alertdialog">
        <DialogHeader>
          <DialogTitle>
            {denied ? "You Can't Request This Waiver" : "Couldn't Validate Policy Key"}
          </DialogTitle>
          <DialogDescription>
            {denied ? failure.message : "Please validate Policy Key input and try again."}
          </DialogDescription>
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
