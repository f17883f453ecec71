import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { PageHeader } from "@/components/page-header";
import { currentTenantQuery } from "@/lib/current-tenant";
import { useDocumentTitle } from "@/lib/use-document-title";
import { AuthenticatorCard } from "./authenticator-card";
import { HistoryCard } from "./history-card";
import { PasskeysCard } from "./passkeys-card";
import { PasswordCard } from "./password-card";
import { PhoneCard } from "./phone-card";
import { ProfileCard } from "./profile-card";
import { SessionsCard } from "./sessions-card";

export function AccountPage() {
  useDocumentTitle("Account");
  const { data } = useQuery(currentTenantQuery());
  // Someone of no tenant has no tenant answer: the session names them.
  const { session } = useRouteContext({ from: "/_authenticated" });
  const user = data?.user ?? session.user;
  return (
    <>
      <PageHeader title="Account" description="Your name, how you sign in and where you are signed in." />
      <div className="grid gap-6 lg:grid-cols-2">
        {user && <ProfileCard name={user.name} email={user.email} />}
        <PasswordCard />
        <AuthenticatorCard />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <PasskeysCard />
        <PhoneCard />
      </div>
      <SessionsCard />
      <HistoryCard />
    </>
  );
}
