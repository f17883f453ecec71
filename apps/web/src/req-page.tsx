import { StrictMode } from "react";
import { ScreenErrorBoundary } from "@/components/screen-error-boundary";
import { preloadPolicyCardCode } from "@/features/waivers/components/policy-info-card";
import { preloadScopePicker } from "@/features/waivers/components/waiver-request-form";
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

/** The code of the lazily loaded parts a found key shows (the policy card's text, the scope picker). */
export function preloadFoundKeyCode(): Promise<unknown> {
  return Promise.all([preloadPolicyCardCode(), preloadScopePicker()]);
}
