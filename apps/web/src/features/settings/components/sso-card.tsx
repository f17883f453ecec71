import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { type SsoDomain, SsoProtocol, type SsoSettings } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { useQuery } from "@tanstack/react-query";
import { CheckIcon, LoaderIcon } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SwitchField } from "@/components/ui/switch-field";
import { Textarea } from "@/components/ui/textarea";
import { currentTenantQuery } from "@/lib/current-tenant";
import { errorText } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { roleLabel } from "@/lib/role-label";
import { ssoSettingsQuery, useCheckSsoDomain, useUpdateSso, useVerifySsoDomain } from "../api/sso-queries";

const ROLES = [Role.VISITOR, Role.VIEWER, Role.MODERATOR, Role.EDITOR, Role.ADMINISTRATOR];

/** Single sign-on of the tenant: its identity provider, domains, default role and whether SSO is required. */
export function SsoCard() {
  const canWrite = usePermissions().has(Permission.TENANT_SETTINGS_WRITE);
  const settings = useQuery({ ...ssoSettingsQuery(), enabled: canWrite });
  if (!canWrite || settings.isPending) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Single sign-on
        </CardTitle>
        <CardDescription>
          Members with an address at your domains sign in through your identity provider (OpenID Connect or
          SAML 2.0). New people are added to this tenant with the default role.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <SsoForm settings={settings.data?.settings} />
        {settings.data?.settings && <SsoDomains settings={settings.data.settings} />}
      </CardContent>
    </Card>
  );
}

function SsoForm({ settings }: { settings: SsoSettings | undefined }) {
  const id = useId();
  const update = useUpdateSso();
  const [protocol, setProtocol] = useState(settings?.protocol ?? SsoProtocol.OIDC);
  const [issuer, setIssuer] = useState(settings?.oidc?.issuer ?? "");
  const [clientId, setClientId] = useState(settings?.oidc?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [samlIssuer, setSamlIssuer] = useState(settings?.saml?.issuer ?? "");
  const [entryPoint, setEntryPoint] = useState(settings?.saml?.entryPoint ?? "");
  const [certificate, setCertificate] = useState(settings?.saml?.certificate ?? "");
  const [domains, setDomains] = useState((settings?.domains ?? []).map((d) => d.domain).join("\n"));
  const [defaultRole, setDefaultRole] = useState<Role>(settings?.defaultRole || Role.VIEWER);
  const [required, setRequired] = useState(settings?.ssoRequired ?? false);
  const [confirmRequired, setConfirmRequired] = useState(false);
  const [saved, setSaved] = useState(false);

  function save(event: React.FormEvent) {
    event.preventDefault();
    // Requiring SSO refuses every other method for those addresses: asked once more before it is saved.
    if (required && !settings?.ssoRequired && !confirmRequired) {
      setConfirmRequired(true);
      return;
    }
    setSaved(false);
    update.mutate(
      {
        protocol,
        oidc: { issuer, clientId, clientSecret },
        saml: { issuer: samlIssuer, entryPoint, certificate },
        domains: domains.split(/[\s,]+/).filter(Boolean),
        defaultRole,
        ssoRequired: required,
      },
      {
        onSuccess: () => {
          setSaved(true);
          setClientSecret("");
          setConfirmRequired(false);
        },
      },
    );
  }

  return (
    <form onSubmit={save} noValidate className="grid max-w-2xl gap-4">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-protocol`}>Protocol</Label>
        <Select value={String(protocol)} onValueChange={(v) => setProtocol(Number(v) as SsoProtocol)}>
          <SelectTrigger id={`${id}-protocol`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={String(SsoProtocol.OIDC)}>OpenID Connect</SelectItem>
            <SelectItem value={String(SsoProtocol.SAML)}>SAML 2.0</SelectItem>
          </SelectContent>
        </Select>
      </div>
      {protocol === SsoProtocol.SAML ? (
        <>
          <Field
            id={`${id}-saml-issuer`}
            label="Identity provider entity id"
            value={samlIssuer}
            onChange={setSamlIssuer}
          />
          <Field
            id={`${id}-entry`}
            label="Sign-in URL (HTTP-Redirect)"
            value={entryPoint}
            onChange={setEntryPoint}
          />
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-cert`}>Signing certificate</Label>
            <Textarea
              id={`${id}-cert`}
              rows={4}
              value={certificate}
              placeholder="-----BEGIN CERTIFICATE-----"
              onChange={(event) => setCertificate(event.target.value)}
            />
          </div>
        </>
      ) : (
        <>
          <Field
            id={`${id}-issuer`}
            label="Issuer URL"
            value={issuer}
            onChange={setIssuer}
            placeholder="https://id.example.com"
          />
          <Field id={`${id}-client`} label="Client id" value={clientId} onChange={setClientId} />
          <Field
            id={`${id}-secret`}
            label="Client secret"
            type="password"
            value={clientSecret}
            onChange={setClientSecret}
            placeholder={settings?.clientSecretSet ? "Stored; leave empty to keep it" : ""}
          />
        </>
      )}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-domains`}>E-mail domains</Label>
        <Textarea
          id={`${id}-domains`}
          rows={3}
          value={domains}
          placeholder="example.com"
          onChange={(event) => setDomains(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          One a line. A domain is used once verified by its DNS record or by an instance administrator.
        </p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-role`}>Role of new users</Label>
        <Select value={String(defaultRole)} onValueChange={(v) => setDefaultRole(Number(v) as Role)}>
          <SelectTrigger id={`${id}-role`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {ROLES.map((role) => (
              <SelectItem key={role} value={String(role)}>
                {roleLabel(role)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <SwitchField
        checked={required}
        onCheckedChange={(checked) => {
          setRequired(checked);
          setConfirmRequired(false);
        }}
        label="Require single sign-on"
        description="Password, e-mailed codes and links are refused for addresses at the verified domains."
      />
      {confirmRequired && (
        <p role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          Everyone at these domains, administrators included, will have to sign in through your identity
          provider. Make sure single sign-on works first, then select Save again to confirm.
        </p>
      )}
      {update.error && (
        <p role="alert" className="text-sm text-destructive">
          {errorText(update.error)}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <LoaderIcon className="animate-spin" />}
          {confirmRequired ? "Save and require SSO" : "Save single sign-on"}
        </Button>
        {saved && (
          <span role="status" className="flex items-center gap-1 text-sm text-muted-foreground">
            <CheckIcon className="size-4" /> Saved
          </span>
        )}
      </div>
    </form>
  );
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  placeholder?: string;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type={props.type ?? "text"}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** What the identity provider's administrator registers, and each domain's verification. */
function SsoDomains({ settings }: { settings: SsoSettings }) {
  const tenant = useQuery(currentTenantQuery());
  const check = useCheckSsoDomain();
  const verify = useVerifySsoDomain();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const instanceAdmin = tenant.data?.user?.instanceAdmin ?? false;
  const tenantId = tenant.data?.tenant?.id ?? "";
  const registration =
    settings.protocol === SsoProtocol.SAML
      ? [
          ["Assertion consumer service URL", settings.acsUrl],
          ["Service provider entity id", settings.spEntityId],
          ["Service provider metadata", settings.spMetadataUrl],
        ]
      : [["Redirect URL", settings.redirectUrl]];

  function checkRecord(domain: SsoDomain) {
    check.mutate(
      { domain: domain.domain },
      { onSuccess: (result) => setNotes((n) => ({ ...n, [domain.domain]: result.message || "Verified." })) },
    );
  }

  return (
    <div className="space-y-4 text-sm">
      <dl className="grid gap-2">
        {registration.map(([label, value]) => (
          <div key={label}>
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-all font-mono text-xs">{value}</dd>
          </div>
        ))}
      </dl>
      <ul className="space-y-3">
        {settings.domains.map((domain) => (
          <li key={domain.domain} className="space-y-1 rounded-md border p-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{domain.domain}</span>
              <Badge variant={domain.verified ? "default" : "secondary"}>
                {domain.verified ? "Verified" : "Not verified"}
              </Badge>
            </div>
            {!domain.verified && (
              <>
                <p className="text-muted-foreground">
                  Add a TXT record named <code className="break-all">{domain.recordName}</code> with the value{" "}
                  <code className="break-all">{domain.recordValue}</code>, then check it.
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    onClick={() => checkRecord(domain)}
                    disabled={check.isPending}
                  >
                    Check DNS record
                  </Button>
                  {instanceAdmin && (
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      disabled={verify.isPending}
                      onClick={() => verify.mutate({ tenantId, domain: domain.domain, verified: true })}
                    >
                      Verify as instance administrator
                    </Button>
                  )}
                </div>
                {notes[domain.domain] && <p role="status">{notes[domain.domain]}</p>}
              </>
            )}
          </li>
        ))}
      </ul>
      {(check.error || verify.error) && (
        <p role="alert" className="text-destructive">
          {errorText(check.error ?? verify.error)}
        </p>
      )}
    </div>
  );
}
