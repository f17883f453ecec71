import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { PageHeader } from "@/components/page-header";
import { useDocumentTitle } from "@/lib/use-document-title";
import { AuthenticatorCard } from "./authenticator-card";

/**
 * Require MFA: after the first factor, a member of a tenant that requires it and has no
 * authenticator app lands here, sets one up, and goes on to the dashboard.
 */
export function TwoFactorSetupPage() {
  useDocumentTitle("Set up two-factor authentication");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onEnabled = async () => {
    // The tenant answers now: its answers are read again as the signed-in area opens.
    queryClient.clear();
    await navigate({ to: "/dashboard" });
  };
  return (
    <>
      <PageHeader
        title="Set up two-factor authentication"
        description="Your tenant asks every member for a second step at sign-in."
      />
      <div className="max-w-xl">
        <AuthenticatorCard onEnabled={() => void onEnabled()} />
      </div>
    </>
  );
}
