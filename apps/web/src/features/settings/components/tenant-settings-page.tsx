import type { Tenant } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { useQuery } from "@tanstack/react-query";
import { CheckIcon, LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SwitchField } from "@/components/ui/switch-field";
import { Textarea } from "@/components/ui/textarea";
import { currentTenantQuery } from "@/lib/current-tenant";
import { fieldErrorsOf } from "@/lib/error-detail";
import { errorText } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { useFormDraft } from "@/lib/use-form-draft";
import { useUpdateTenantSettings } from "../api/settings-queries";
import { parseDomainList } from "../requester-domains";
import { parseSettingsDraft, type SettingsValues, settingsDraftKey } from "../settings-draft";
import { RequireMfaCard } from "./require-mfa-card";
import { SsoCard } from "./sso-card";

const NAME_MAX = 100;
const MAX_HOURS = 72;

type Values = SettingsValues;

function valuesOf(tenant: Tenant): Values {
  const settings = tenant.settings;
  return {
    name: tenant.name,
    approvalMode:
      settings?.defaultWaiverApprovalMode === WaiverApprovalMode.MANUAL
        ? WaiverApprovalMode.MANUAL
        : WaiverApprovalMode.AUTO,
    maxHours: String(settings?.maxWaiverDurationHours ?? MAX_HOURS),
    linkBaseUrl: settings?.waiverLinkBaseUrl ?? "",
    separateApprover: settings?.requireSeparateApprover ?? true,
    domains: (settings?.waiverRequesterDomains ?? []).join("\n"),
  };
}

type Problems = Partial<Record<"name" | "maxHours" | "linkBaseUrl" | "domains", string>>;

function validate(values: Values): Problems {
  const problems: Problems = {};
  const name = values.name.trim();
  if (!name || name.length > NAME_MAX) problems.name = `Tenant name must be 1 to ${NAME_MAX} characters.`;
  const hours = Number(values.maxHours);
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HOURS) {
    problems.maxHours = `Maximum waiver duration must be 1 to ${MAX_HOURS} hours.`;
  }
  if (values.linkBaseUrl.trim() && !/^https?:\/\/\S{1,500}$/.test(values.linkBaseUrl.trim())) {
    problems.linkBaseUrl = "Waiver link base URL must be an http or https URL.";
  }
  const domains = parseDomainList(values.domains);
  if (domains.problem) problems.domains = domains.problem;
  return problems;
}

/** The server's field names, mapped to the form's. */
const serverFields: Record<string, keyof Problems> = {
  name: "name",
  "settings.max_waiver_duration_hours": "maxHours",
  "settings.waiver_link_base_url": "linkBaseUrl",
  "settings.waiver_requester_domains": "domains",
};

export function TenantSettingsPage() {
  const { data } = useQuery(currentTenantQuery());
  const tenant = data?.tenant;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Settings"
        description="How this tenant handles waivers, who may ask for one without an invitation, and how members sign in."
      />
      {/* Keyed by tenant: switching tenants starts the form over with the other tenant's values. */}
      {tenant && <SettingsForm key={tenant.id} tenant={tenant} />}
      {tenant && <RequireMfaCard key={`mfa-${tenant.id}`} tenant={tenant} />}
      {tenant && <SsoCard key={`sso-${tenant.id}`} />}
    </div>
  );
}

function SettingsForm({ tenant }: { tenant: Tenant }) {
  const id = useId();
  const canWrite = usePermissions().has(Permission.TENANT_SETTINGS_WRITE);
  // What was entered before the session ended, filled in again after signing in (this tenant's only).
  const draft = useFormDraft(settingsDraftKey(tenant.id), parseSettingsDraft);
  const [values, setValues] = useState(() => draft.restored ?? valuesOf(tenant));
  draft.keep(values);
  const [submitted, setSubmitted] = useState(false);
  const [saved, setSaved] = useState(false);
  const update = useUpdateTenantSettings();
  const problems = validate(values);
  const serverProblems = fieldErrorsOf(update.error, Object.keys(serverFields));
  const shown: Problems = submitted ? problems : {};
  for (const [field, message] of Object.entries(serverProblems?.fields ?? {})) {
    const key = serverFields[field];
    if (key && !shown[key]) shown[key] = message;
  }
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setSaved(false);
  };

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    try {
      const { tenant: answer } = await update.mutateAsync({
        name: values.name.trim(),
        settings: {
          defaultWaiverApprovalMode: values.approvalMode,
          maxWaiverDurationHours: Number(values.maxHours),
          waiverLinkBaseUrl: values.linkBaseUrl.trim(),
          requireSeparateApprover: values.separateApprover,
          waiverRequesterDomains: parseDomainList(values.domains).domains,
        },
      });
      if (answer) setValues(valuesOf(answer));
      draft.discard();
      setSaved(true);
    } catch {
      // Shown beside the fields, or below the form.
    }
  }

  const error = (key: keyof Problems) =>
    shown[key] && (
      <p id={`${id}-${key}-error`} className="text-sm text-destructive">
        {shown[key]}
      </p>
    );

  return (
    <Card>
      <CardContent className="pt-6">
        <form onSubmit={save} noValidate className="max-w-2xl">
          <fieldset disabled={!canWrite} className="grid gap-5">
            {draft.restored && (
              <p role="status" className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
                What you entered before signing in again is filled in. Check it, then save.
              </p>
            )}
            {!canWrite && (
              <p className="text-sm text-muted-foreground">
                Your role may read these settings but not change them; an administrator of this tenant can.
              </p>
            )}
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-name`}>Tenant name</Label>
              <Input
                id={`${id}-name`}
                value={values.name}
                maxLength={NAME_MAX + 20}
                aria-invalid={!!shown.name}
                onChange={(event) => set("name", event.target.value)}
              />
              {error("name")}
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-mode`}>Default waiver approval mode</Label>
                <Select
                  value={String(values.approvalMode)}
                  onValueChange={(value) => set("approvalMode", Number(value) as WaiverApprovalMode)}
                  disabled={!canWrite}
                >
                  <SelectTrigger id={`${id}-mode`}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={String(WaiverApprovalMode.AUTO)}>
                      Automatic (active at once)
                    </SelectItem>
                    <SelectItem value={String(WaiverApprovalMode.MANUAL)}>
                      Manual (a reviewer decides)
                    </SelectItem>
                  </SelectContent>
                </Select>
                <p className="text-xs text-muted-foreground">
                  For policies whose own settings choose no mode.
                </p>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-hours`}>Maximum waiver duration (hours)</Label>
                <Input
                  id={`${id}-hours`}
                  inputMode="numeric"
                  value={values.maxHours}
                  aria-invalid={!!shown.maxHours}
                  onChange={(event) => set("maxHours", event.target.value)}
                />
                {error("maxHours")}
              </div>
            </div>
            <SwitchField
              checked={values.separateApprover}
              onCheckedChange={(checked) => set("separateApprover", checked)}
              label="Require a separate approver"
              description="Separation of duties: whoever requested a waiver cannot approve or reject it."
            />
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-domains`}>Waiver requester domains</Label>
              <Textarea
                id={`${id}-domains`}
                rows={4}
                value={values.domains}
                placeholder={"example.com\ncorp.example.com"}
                aria-invalid={!!shown.domains}
                aria-describedby={`${id}-domains-help`}
                onChange={(event) => set("domains", event.target.value)}
              />
              {error("domains")}
              <p id={`${id}-domains-help`} className="text-xs text-muted-foreground">
                One e-mail domain a line. People with an address there can request a waiver on the public
                request page with a code e-mailed to them, and join this tenant as Visitor (they may only
                request waivers). Leave empty to allow members only.
              </p>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-link`}>Waiver link base URL</Label>
              <Input
                id={`${id}-link`}
                value={values.linkBaseUrl}
                placeholder="https://palisade.example.com/req"
                aria-invalid={!!shown.linkBaseUrl}
                onChange={(event) => set("linkBaseUrl", event.target.value)}
              />
              {error("linkBaseUrl")}
              <p className="text-xs text-muted-foreground">The request page linked from deny messages.</p>
            </div>
            {update.error && !serverProblems?.fields && (
              <p role="alert" className="text-sm text-destructive">
                {errorText(update.error)}
              </p>
            )}
            {canWrite && (
              <div className="flex flex-wrap items-center gap-3">
                <Button type="submit" disabled={update.isPending}>
                  {update.isPending && <LoaderIcon className="animate-spin" />}
                  Save settings
                </Button>
                {saved && (
                  <span role="status" className="flex items-center gap-1 text-sm text-muted-foreground">
                    <CheckIcon className="size-4" /> Saved
                  </span>
                )}
              </div>
            )}
          </fieldset>
        </form>
      </CardContent>
    </Card>
  );
}
