import { useRouterState } from "@tanstack/react-router";
import { InfoIcon } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";

declare module "@tanstack/history" {
  interface HistoryState {
    /** A sentence for the page a redirect lands on: why the visitor is here instead. */
    notice?: string;
  }
}

/** The notice a redirect left in the history entry, shown once at the top of the page. */
export function RouteNotice() {
  const notice = useRouterState({ select: (state) => state.location.state.notice });
  if (!notice) return null;
  return (
    <Alert data-testid="route-notice">
      <InfoIcon />
      <AlertDescription>{notice}</AlertDescription>
    </Alert>
  );
}
