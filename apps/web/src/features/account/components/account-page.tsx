import { useQuery } from "@tanstack/react-query";
import { PageHeader } from "@/components/page-header";
import { currentTenantQuery } from "@/lib/current-tenant";
import { useDocumentTitle } from "@/lib/use-document-title";
import { AuthenticatorCard } from "./authenticator-card";
import { HistoryCard } from "./history-card";
import { PasswordCard } from "./password-card";
import { ProfileCard } from "./profile-card";
import { SessionsCard } from "./sessions-card";

export function AccountPage() {
  useDocumentTitle("Account");
  const { data } = useQuery(currentTenantQuery());
  const user = data?.user;
  return (
    <>
      <PageHeader title="Account" description="Your name, how you sign in and where you are signed in." />
      <div className="grid gap-6 lg:grid-cols-2">
        {user && <ProfileCard name={user.name} email={user.email} />}
        <PasswordCard />
        <AuthenticatorCard />
      </div>
      <SessionsCard />
      <HistoryCard />
    </>
  );
}
