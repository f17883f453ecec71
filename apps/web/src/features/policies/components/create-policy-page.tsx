import { Code, ConnectError } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { LoaderIcon } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { ImpactPreviewPanel } from "@/components/impact-preview/impact-preview-panel";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { connectorsQuery } from "@/lib/connectors-query";
import { currentTenantQuery } from "@/lib/current-tenant";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { Permission, usePermissions } from "@/lib/permissions";
import { providerLabel } from "@/lib/policy-definition-labels";
import { useFormDraft } from "@/lib/use-form-draft";
import {
  bundleQuery,
  catalogueChoicesQuery,
  definitionQuery,
  useCreateBundle,
  useMarkRecommendationInstalled,
} from "../api/policy-queries";
import { providerOf } from "../catalogue-filters";
import {
  type CreatePolicyDraft,
  createPolicyDraftKey,
  parseCreatePolicyDraft,
  type ScopeChoice,
} from "../forms/create-policy-draft";
import {
  initialInputs,
  type ParameterInputs,
  parameterSpecsOf,
  parameterValues,
  serverFieldErrors,
} from "../forms/parameter-form";
import type { CreatePolicyContext } from "../policies-search";
import { FieldError, RadioGroup, Section } from "./form-section";
import { ParameterFields } from "./parameter-fields";
import { managementAccountScopes, ScopePicker, scopeId, scopeOf } from "./scope-picker";
import { StartingPoint } from "./starting-point";

export function CreatePolicyPage({ context }: { context: CreatePolicyContext }) {
  const permissions = usePermissions();
  const canDeploy = permissions.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT);
  const navigate = useNavigate();
  const fromKey = useQuery({ ...bundleQuery(context.policyKey ?? ""), enabled: !!context.policyKey });
  // What was entered before the session ended, filled in again after signing in.
  const draft = useFormDraft<CreatePolicyDraft>(createPolicyDraftKey, parseCreatePolicyDraft);
  const restored = draft.restored;
  const [slug, setSlug] = useState(restored?.slug ?? context.defaultSelectedPolicies?.[0] ?? "");
  useEffect(() => {
    const keySlug = fromKey.data?.bundle?.bundle?.policySlug;
    if (keySlug && !slug) setSlug(keySlug);
  }, [fromKey.data, slug]);
  const provider = context.provider;
  const catalogue = useQuery(catalogueChoicesQuery(provider ? providerOf[provider] : undefined));
  const definition = useQuery({ ...definitionQuery(slug), enabled: slug !== "" });
  const selectedDefinition = definition.data?.policyDefinition;
  const specs = useMemo(() => parameterSpecsOf(selectedDefinition), [selectedDefinition]);
  const hierarchy = useQuery(hierarchyQuery());
  const connectors = useQuery(connectorsQuery());

  const [name, setName] = useState(restored?.name ?? "");
  const [mode, setMode] = useState<DeploymentMode>(restored?.mode ?? DeploymentMode.ALERT);
  // Until the person picks one, the tenant's default mode (the server's own fallback is AUTO).
  const tenantDefault = useQuery(currentTenantQuery()).data?.tenant?.settings?.defaultWaiverApprovalMode;
  const [chosenApproval, setApproval] = useState<WaiverApprovalMode | null>(restored?.approval ?? null);
  const approval = chosenApproval ?? (tenantDefault || WaiverApprovalMode.AUTO);
  const [namespace, setNamespace] = useState(restored?.namespace ?? "");
  const [scopes, setScopes] = useState<Map<string, ScopeChoice>>(new Map());
  const [inputs, setInputs] = useState<ParameterInputs>({});
  draft.keep({
    slug,
    name,
    mode,
    approval: chosenApproval,
    namespace,
    scopes: [...scopes.values()],
    inputs,
  });
  // Parameters and scopes belong to the policy: filled in once its definition has loaded.
  const pendingDraft = useRef(restored);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [confirmPrevent, setConfirmPrevent] = useState(false);
  const create = useCreateBundle();
  const markInstalled = useMarkRecommendationInstalled();

  useEffect(() => {
    const pending = pendingDraft.current;
    setErrors({});
    if (pending && selectedDefinition?.slug === pending.slug) {
      pendingDraft.current = null;
      setInputs({ ...initialInputs(specs), ...pending.inputs });
      setScopes(new Map(pending.scopes.map((scope) => [scopeId(scope), scope])));
      return;
    }
    setInputs(initialInputs(specs));
    setScopes(new Map());
    if (selectedDefinition) setName((current) => current || selectedDefinition.displayName);
  }, [specs, selectedDefinition]);

  const definitionProvider = selectedDefinition ? providerOf[providerLabel(selectedDefinition)] : undefined;

  // What the preview replays: the policy as it would be deployed, once it is complete.
  const previewRequest = useMemo(() => {
    const parameters = parameterValues(specs, inputs);
    if (!slug || !selectedDefinition || scopes.size === 0 || !parameters.ok) return undefined;
    return { policySlug: slug, parameters: parameters.values, scopes: [...scopes.values()] };
  }, [slug, selectedDefinition, specs, inputs, scopes]);

  const toggleScope = (node: HierarchyNode) =>
    setScopes((current) => {
      const next = new Map(current);
      const id = scopeId(node);
      if (next.has(id)) next.delete(id);
      else next.set(id, scopeOf(node));
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!slug) local.policy = "Choose a policy.";
    if (!name.trim()) local.name = "Enter a name.";
    if (scopes.size === 0) local.scopes = "Choose at least one scope.";
    const parameters = parameterValues(specs, inputs);
    if (!parameters.ok) {
      for (const [field, message] of Object.entries(parameters.errors))
        local[`parameters.${field}`] = message;
    }
    setErrors(local);
    if (Object.keys(local).length > 0 || !parameters.ok) return;
    // Straight to PREVENT starts denying at once: asked first, as switching a policy to it is.
    if (mode === DeploymentMode.PREVENT) setConfirmPrevent(true);
    else await deploy();
  };

  const deploy = async () => {
    const parameters = parameterValues(specs, inputs);
    if (!parameters.ok) return;
    try {
      const answer = await create.mutateAsync({
        name: name.trim(),
        policySlug: slug,
        scopes: [...scopes.values()],
        mode,
        parameters: parameters.values,
        isVisible: true,
        namespace: namespace.trim() || undefined,
        waiverSettings: { approvalMode: approval },
      });
      const id = answer.bundle?.entity?.id ?? answer.bundle?.key ?? "";
      draft.discard();
      const bundleId = answer.bundle?.entity?.id;
      if (context.recommendationId && bundleId) {
        // The policy is deployed whatever happens here; a recommendation that could not be marked
        // (removed meanwhile, or no permission to install) stays open and can be archived by hand.
        await markInstalled
          .mutateAsync({ id: context.recommendationId, bundleIds: [bundleId] })
          .catch(() => {});
      }
      await navigate({ to: "/policies/$policyId", params: { policyId: id } });
    } catch (error) {
      // The session ended: its own dialog asks to sign in again, and the input is kept as a draft.
      if (error instanceof ConnectError && error.code === Code.Unauthenticated) return;
      if (error instanceof ConnectError && error.code === Code.InvalidArgument) {
        const fields = ["name", "namespace", "scopes", ...specs.map((s) => `parameters.${s.name}`)];
        const found = serverFieldErrors(error, fields);
        setErrors(found.fields);
        if (found.rest.length > 0) setFailure(error);
      } else {
        setFailure(error);
      }
    }
  };

  if (!canDeploy) {
    return (
      <>
        <PageHeader title="Create policy" description="Deploy a policy from the catalogue to your clouds." />
        <EmptyState
          title="You cannot deploy policies"
          description="Deploying needs both the alert and the prevent write permissions; ask an administrator of this tenant."
        />
      </>
    );
  }

  const choices = catalogue.data?.items ?? [];
  const parameterErrors = Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith("parameters."))
      .map(([key, message]) => [key.slice("parameters.".length), message]),
  );

  return (
    <>
      <PageHeader
        title="Create policy"
        description="Choose a policy from the catalogue, set its parameters, pick the scopes and deploy it in alert mode first or straight to prevent."
      />
      <StartingPoint
        context={context}
        titles={new Map(choices.map((choice) => [choice.slug, choice.displayName]))}
      />
      {restored && (
        <p role="status" className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
          What you entered before signing in again is filled in. Check it, then deploy.
        </p>
      )}
      {/* Columns no wider than the screen, whatever the longest policy name in the select. */}
      <form className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0" onSubmit={submit} noValidate>
        <div className="space-y-4">
          <Section title="Policy">
            <div className="space-y-3">
              <div className="space-y-1">
                <label htmlFor="policy-slug" className="text-sm font-medium">
                  Policy definition
                </label>
                {catalogue.isPending ? (
                  <Skeleton className="h-9 w-full" />
                ) : (
                  <select
                    id="policy-slug"
                    className="h-9 w-full rounded-md border border-input bg-card px-2 text-sm"
                    value={slug}
                    aria-invalid={!!errors.policy}
                    onChange={(event) => {
                      setSlug(event.target.value);
                      setName("");
                    }}
                  >
                    <option value="">Choose a policy…</option>
                    {slug && !choices.some((c) => c.slug === slug) && (
                      <option value={slug}>Policy not in the catalogue</option>
                    )}
                    {choices.map((choice) => (
                      <option key={choice.slug} value={choice.slug}>
                        {choice.displayName} ({providerLabel(choice)})
                      </option>
                    ))}
                  </select>
                )}
                <FieldError id="policy-error" message={errors.policy} />
                {definition.isError && (
                  <p className="text-xs text-destructive">This policy is not in the catalogue.</p>
                )}
                {selectedDefinition && (
                  <p className="text-xs text-muted-foreground">
                    {providerLabel(selectedDefinition)} · {selectedDefinition.mainResourceType}
                  </p>
                )}
              </div>
              <div className="space-y-1">
                <label htmlFor="bundle-name" className="text-sm font-medium">
                  Name
                </label>
                <Input
                  id="bundle-name"
                  value={name}
                  maxLength={120}
                  aria-invalid={!!errors.name}
                  aria-describedby="bundle-name-error"
                  onChange={(event) => setName(event.target.value)}
                />
                <FieldError id="bundle-name-error" message={errors.name} />
              </div>
              <div className="space-y-1">
                <label htmlFor="bundle-namespace" className="text-sm font-medium">
                  Namespace <span className="font-normal text-muted-foreground">(optional)</span>
                </label>
                <Input
                  id="bundle-namespace"
                  value={namespace}
                  maxLength={64}
                  aria-invalid={!!errors.namespace}
                  aria-describedby="bundle-namespace-error"
                  onChange={(event) => setNamespace(event.target.value)}
                />
                <FieldError id="bundle-namespace-error" message={errors.namespace} />
              </div>
            </div>
          </Section>
          <Section title="Mode and waivers">
            <div className="grid gap-4 sm:grid-cols-2">
              <RadioGroup
                legend="Mode"
                name="mode"
                value={mode}
                onChange={setMode}
                options={[
                  [DeploymentMode.ALERT, "Alert", "Report violations without blocking them."],
                  [DeploymentMode.PREVENT, "Prevent", "Deny violating actions in the cloud."],
                ]}
              />
              <RadioGroup
                legend="Waiver approval"
                name="approval"
                value={approval}
                onChange={setApproval}
                options={[
                  [WaiverApprovalMode.MANUAL, "Manual", "A reviewer approves each waiver."],
                  [WaiverApprovalMode.AUTO, "Automatic", "Waivers apply as soon as they are requested."],
                ]}
              />
            </div>
          </Section>
          <Section title="Parameters">
            {slug === "" ? (
              <p className="text-sm text-muted-foreground">Choose a policy to set its parameters.</p>
            ) : definition.isPending ? (
              <Skeleton className="h-24 w-full" />
            ) : (
              <ParameterFields
                specs={specs}
                values={inputs}
                errors={parameterErrors}
                onChange={(field, value) => setInputs((current) => ({ ...current, [field]: value }))}
              />
            )}
          </Section>
        </div>
        <div className="space-y-4">
          <Section
            title="Scopes"
            description={
              definitionProvider === CloudProvider.AZURE
                ? "Management groups, subscriptions or resource groups this policy applies to."
                : "The organisation root, OUs or accounts this policy applies to."
            }
          >
            {hierarchy.isPending ? (
              <Skeleton className="h-40 w-full" />
            ) : hierarchy.isError ? (
              <p className="text-sm text-destructive">The scopes could not be loaded.</p>
            ) : !selectedDefinition ? (
              <p className="text-sm text-muted-foreground">Choose a policy to see the scopes of its cloud.</p>
            ) : (
              <ScopePicker
                roots={hierarchy.data.roots}
                provider={definitionProvider}
                selected={new Set(scopes.keys())}
                undeployable={managementAccountScopes(connectors.data?.items ?? [])}
                onToggle={toggleScope}
              />
            )}
            <FieldError id="scopes-error" message={errors.scopes} />
          </Section>
          <ImpactPreviewPanel
            request={previewRequest}
            missing="Choose a policy, valid parameters and at least one scope to preview what it would deny."
          />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => void navigate({ to: "/policies" })}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderIcon className="animate-spin" />}
              Deploy policy
            </Button>
          </div>
        </div>
      </form>
      <ConfirmDialog
        open={confirmPrevent}
        onOpenChange={setConfirmPrevent}
        title={`Deploy ${name.trim() || "this policy"} in PREVENT mode?`}
        description={`Enforcement starts as soon as the cloud has it: every action the policy matches is denied on ${scopes.size === 1 ? "the chosen scope" : `the ${scopes.size} chosen scopes`}, including work in progress. Deploy in ALERT mode first to see what it would deny.`}
        confirmLabel="Deploy and enforce"
        destructive
        pending={create.isPending}
        onConfirm={() => {
          setConfirmPrevent(false);
          void deploy();
        }}
      />
      <ErrorDialog error={failure} onClose={() => setFailure(null)} />
    </>
  );
}
