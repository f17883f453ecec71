import { StrictMode } from "react";
import { ScreenErrorBoundary } from "@/components/screen-error-boundary";
import { WaiverRequestPage } from "@/features/waivers/components/waiver-request-page";

/** The public waiver page as the server renders it and the browser renders or hydrates it: the same tree. */
export function waiverRequestRoot(userName: string | null, initialKey: string) {
  return (
    <StrictMode>
      <ScreenErrorBoundary>
        <WaiverRequestPage userName={userName} initialKey={initialKey} />
      </ScreenErrorBoundary>
    </StrictMode>
  );
}
