import type { Tenant } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { CheckIcon } from "lucide-react";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SwitchField } from "@/components/ui/switch-field";
import { errorText } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { useUpdateTenantSettings } from "../api/settings-queries";

function membersText(count: number): string {
  return count === 1 ? "1 member has" : `${count} members have`;
}

/**
 * Require MFA: members without an authenticator app set one up at their next sign-in before the
 * tenant's pages open. Turning it on asks first and says how many members it stops.
 */
export function RequireMfaCard({ tenant }: { tenant: Tenant }) {
  const id = useId();
  const canWrite = usePermissions().has(Permission.TENANT_SETTINGS_WRITE);
  const update = useUpdateTenantSettings();
  const queryClient = useQueryClient();
  const router = useRouter();
  const on = tenant.settings?.requireMfa ?? false;
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const withoutMfa = tenant.membersWithoutMfa;

  async function save(requireMfa: boolean) {
    const stored = tenant.settings;
    if (!stored) return;
    setSaved(null);
    try {
      // The other settings are sent as stored: this card changes Require MFA alone.
      await update.mutateAsync({ settings: { ...stored, requireMfa } });
      setConfirming(false);
      setSaved(requireMfa ? "Require MFA is on." : "Require MFA is off.");
      // Turned on by someone without an app, the next page is their own set-up page.
      if (requireMfa) {
        queryClient.clear();
        await router.invalidate();
      }
    } catch {
      // Shown below the switch (or in the dialog).
    }
  }

  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle as="h2" id={`${id}-title`}>
          Two-factor authentication
        </CardTitle>
        <CardDescription>
          Whether every member of this tenant must use a second step at sign-in.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <SwitchField
          checked={on}
          disabled={!canWrite || update.isPending}
          onCheckedChange={(checked) => (checked ? setConfirming(true) : void save(false))}
          label="Require MFA"
          description="A member without an authenticator app sets one up at their next sign-in, before they can use this tenant. Signing in with a passkey, or with this tenant's single sign-on, also counts."
        />
        <p className="text-sm text-muted-foreground">
          {withoutMfa === 0
            ? "Every member has an authenticator app or a passkey."
            : `${membersText(withoutMfa)} neither an authenticator app nor a passkey yet.`}
        </p>
        {update.error && !confirming && (
          <p role="alert" className="text-sm text-destructive">
            {errorText(update.error)}
          </p>
        )}
        {saved && (
          <p role="status" className="flex items-center gap-1 text-sm text-muted-foreground">
            <CheckIcon className="size-4" /> {saved}
          </p>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Require MFA for every member?"
        description={
          withoutMfa === 0
            ? "Every member already has an authenticator app or a passkey; new members will set one up at their first sign-in."
            : `${membersText(withoutMfa)} neither an authenticator app nor a passkey yet. At their next sign-in they must set up an authenticator app before they can use this tenant; members signed in now are refused until they do. If you have none yourself, you set yours up next.`
        }
        confirmLabel="Require MFA"
        pending={update.isPending}
        onConfirm={() => void save(true)}
      >
        {update.error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorText(update.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </Card>
  );
}
