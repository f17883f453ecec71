import { createFileRoute } from "@tanstack/react-router";
import { TwoFactorSetupPage } from "@/features/account/components/two-factor-setup-page";

export const Route = createFileRoute("/_authenticated/two-factor-setup/")({
  component: TwoFactorSetupPage,
});
