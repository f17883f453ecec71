import { LogInIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";

/** Tells the user that their session has ended and offers to sign in again (see SessionGuard). */
export function SessionEndedDialog({ onSignInAgain }: { onSignInAgain: () => void }) {
  return (
    <Dialog open>
      <DialogContent role="alertdialog" showClose={false}>
        <DialogHeader>
          <DialogTitle>Your session has ended</DialogTitle>
          <DialogDescription>
            You were signed out (the session expired or was ended from another device). Sign in again to
            continue on this page: the deploy and settings forms are filled in again as you left them. Copy
            any other unsaved text first if you need it.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button onClick={onSignInAgain}>
            <LogInIcon />
            Sign in again
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
