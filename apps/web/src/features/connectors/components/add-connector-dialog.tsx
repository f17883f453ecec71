import { zodResolver } from "@hookform/resolvers/zod";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { AzureCredentialType, type Connector } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { useQuery } from "@tanstack/react-query";
import { LoaderIcon, PlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { errorText } from "@/lib/error-text";
import { setupInstructionsQuery, useCreateConnector } from "../api/connector-queries";
import {
  type AwsConnectorValues,
  type AzureConnectorValues,
  awsConnectorSchema,
  azureConnectorSchema,
  trailOf,
} from "../forms/connector-form-schema";
import { EMPTY_POLICY_LIMITS, policyLimitsOf } from "../forms/policy-limits-form";
import { Field } from "./field";
import { PolicyLimitFields } from "./policy-limit-fields";
import { SetupMarkdown } from "./setup-markdown";
import { TrailFields } from "./trail-fields";

function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {errorText(error)}
    </p>
  );
}

function Instructions({ provider }: { provider: CloudProvider }) {
  const { data, isPending } = useQuery(setupInstructionsQuery({ case: "provider", value: provider }));
  if (isPending) return <p className="text-sm text-muted-foreground">Loading the setup steps…</p>;
  return data ? <SetupMarkdown markdown={data.markdown} /> : null;
}

function SandboxForm({ onCreated }: { onCreated: (connector: Connector) => void }) {
  const id = useId();
  const [provider, setProvider] = useState<"AWS" | "AZURE">("AWS");
  const create = useCreateConnector();
  const submit = async () => {
    const cloud = provider === "AWS" ? CloudProvider.AWS : CloudProvider.AZURE;
    const { connector } = await create.mutateAsync({
      name: provider === "AWS" ? "Sandbox AWS organisation" : "Sandbox Azure tenant",
      config: { kind: { case: "sandbox", value: { provider: cloud } } },
    });
    if (connector) onCreated(connector);
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        The sandbox cloud is built into Palisade: a simulated AWS organisation and Azure tenant that enforce
        the guardrails you deploy and produce activity to watch. Nothing needs to be set up.
      </p>
      <Field id={`${id}-provider`} label="Provider">
        <Select value={provider} onValueChange={(v) => setProvider(v as "AWS" | "AZURE")}>
          <SelectTrigger id={`${id}-provider`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="AWS">AWS organisation</SelectItem>
            <SelectItem value="AZURE">Azure tenant</SelectItem>
          </SelectContent>
        </Select>
      </Field>
      <FormError error={create.error} />
      <DialogFooter>
        <Button onClick={submit} disabled={create.isPending}>
          {create.isPending && <LoaderIcon className="animate-spin" />}
          Add sandbox connector
        </Button>
      </DialogFooter>
    </div>
  );
}

function AwsForm({ onCreated }: { onCreated: (connector: Connector) => void }) {
  const id = useId();
  const create = useCreateConnector();
  const form = useForm<AwsConnectorValues>({
    resolver: zodResolver(awsConnectorSchema),
    mode: "onTouched",
    defaultValues: {
      name: "",
      managementAccountId: "",
      roleArn: "",
      region: "",
      ...EMPTY_POLICY_LIMITS,
      trailBucket: "",
      trailKeyPrefix: "",
      trailBucketRegion: "",
      trailReaderRoleArn: "",
      trailReaderExternalId: "",
      trailBackfillDays: "",
    },
  });
  const { errors, isValid } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    const { connector } = await create.mutateAsync({
      name: values.name,
      config: {
        kind: {
          case: "aws",
          value: {
            managementAccountId: values.managementAccountId,
            roleArn: values.roleArn,
            region: values.region,
            policyLimits: policyLimitsOf(values),
            trail: trailOf(values),
          },
        },
      },
    });
    if (connector) onCreated(connector);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Instructions provider={CloudProvider.AWS} />
      <Field id={`${id}-name`} label="Name" error={errors.name?.message}>
        <Input id={`${id}-name`} aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      <Field id={`${id}-account`} label="Management account id" error={errors.managementAccountId?.message}>
        <Input
          id={`${id}-account`}
          inputMode="numeric"
          placeholder="111122223333"
          aria-invalid={!!errors.managementAccountId}
          {...form.register("managementAccountId")}
        />
      </Field>
      <Field
        id={`${id}-role`}
        label="Role ARN"
        hint="In the management account, or in a member account the management account made delegated administrator for Organizations (see the setup instructions)."
        error={errors.roleArn?.message}
      >
        <Input
          id={`${id}-role`}
          placeholder="arn:aws:iam::111122223333:role/PalisadeConnector"
          aria-invalid={!!errors.roleArn}
          {...form.register("roleArn")}
        />
      </Field>
      <Field
        id={`${id}-region`}
        label="Region"
        hint="Home region: the trail must cover it; without a trail, the one region LookupEvents reads. us-east-1 when empty."
        error={errors.region?.message}
      >
        <Input id={`${id}-region`} placeholder="us-east-1" {...form.register("region")} />
      </Field>
      <PolicyLimitFields id={id} register={form.register} errors={errors} />
      <TrailFields id={id} form={form} />
      <FormError error={create.error} />
      <DialogFooter>
        <Button type="submit" disabled={create.isPending || !isValid}>
          {create.isPending && <LoaderIcon className="animate-spin" />}
          Create and show the external id
        </Button>
      </DialogFooter>
    </form>
  );
}

function AzureForm({ onCreated }: { onCreated: (connector: Connector) => void }) {
  const id = useId();
  const create = useCreateConnector();
  const form = useForm<AzureConnectorValues>({
    resolver: zodResolver(azureConnectorSchema),
    mode: "onTouched",
    defaultValues: {
      name: "",
      tenantId: "",
      clientId: "",
      credentialType: "secret",
      clientSecret: "",
      certificatePem: "",
    },
  });
  const { errors, isValid } = form.formState;
  const credentialType = form.watch("credentialType");
  const onSubmit = form.handleSubmit(async (values) => {
    const certificate = values.credentialType === "certificate";
    const { connector } = await create.mutateAsync({
      name: values.name,
      config: {
        kind: {
          case: "azure",
          value: {
            tenantId: values.tenantId,
            clientId: values.clientId,
            credentialType: certificate ? AzureCredentialType.CERTIFICATE : AzureCredentialType.CLIENT_SECRET,
            ...(certificate
              ? { clientCertificatePem: values.certificatePem }
              : { clientSecret: values.clientSecret }),
          },
        },
      },
    });
    if (connector) onCreated(connector);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Instructions provider={CloudProvider.AZURE} />
      <Field id={`${id}-name`} label="Name" error={errors.name?.message}>
        <Input id={`${id}-name`} aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      <Field id={`${id}-tenant`} label="Tenant id" error={errors.tenantId?.message}>
        <Input id={`${id}-tenant`} aria-invalid={!!errors.tenantId} {...form.register("tenantId")} />
      </Field>
      <Field id={`${id}-client`} label="Application (client) id" error={errors.clientId?.message}>
        <Input id={`${id}-client`} aria-invalid={!!errors.clientId} {...form.register("clientId")} />
      </Field>
      <Field id={`${id}-credential`} label="Credential">
        <Select
          value={credentialType}
          onValueChange={(v) =>
            form.setValue("credentialType", v as "secret" | "certificate", { shouldValidate: true })
          }
        >
          <SelectTrigger id={`${id}-credential`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="secret">Client secret</SelectItem>
            <SelectItem value="certificate">Certificate (PEM)</SelectItem>
          </SelectContent>
        </Select>
      </Field>
      {credentialType === "secret" ? (
        <Field
          id={`${id}-secret`}
          label="Client secret"
          hint="Stored encrypted; never shown again."
          error={errors.clientSecret?.message}
        >
          <Input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            aria-invalid={!!errors.clientSecret}
            {...form.register("clientSecret")}
          />
        </Field>
      ) : (
        <Field
          id={`${id}-pem`}
          label="Certificate with private key (PEM)"
          hint="Stored encrypted; only its thumbprint is shown again."
          error={errors.certificatePem?.message}
        >
          <Textarea
            id={`${id}-pem`}
            rows={5}
            className="font-mono text-xs"
            aria-invalid={!!errors.certificatePem}
            {...form.register("certificatePem")}
          />
        </Field>
      )}
      <FormError error={create.error} />
      <DialogFooter>
        <Button type="submit" disabled={create.isPending || !isValid}>
          {create.isPending && <LoaderIcon className="animate-spin" />}
          Create connector
        </Button>
      </DialogFooter>
    </form>
  );
}

/** After an AWS or Azure connector is created: the steps with its own external id, then a test. */
function CreatedStep({ connector, onDone }: { connector: Connector; onDone: () => void }) {
  const id = connector.entity?.id ?? "";
  const { data } = useQuery(setupInstructionsQuery({ case: "connectorId", value: id }));
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <strong>{connector.name}</strong> was created. Finish the setup in the cloud with the values below,
        then test the connection from the list.
      </p>
      {data && <SetupMarkdown markdown={data.markdown} />}
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </div>
  );
}

export function AddConnectorDialog() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<Connector | null>(null);
  const onCreated = (connector: Connector) => {
    if (connector.config?.kind.case === "sandbox") setOpen(false);
    else setCreated(connector);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setCreated(null);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlusIcon />
          Add connector
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add connector</DialogTitle>
          <DialogDescription>
            Connect an AWS organisation, an Azure tenant or the built-in sandbox cloud.
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <CreatedStep connector={created} onDone={() => setOpen(false)} />
        ) : (
          <Tabs defaultValue="sandbox">
            <TabsList>
              <TabsTrigger value="sandbox">Sandbox</TabsTrigger>
              <TabsTrigger value="aws">AWS</TabsTrigger>
              <TabsTrigger value="azure">Azure</TabsTrigger>
            </TabsList>
            <TabsContent value="sandbox" className="pt-4">
              <SandboxForm onCreated={onCreated} />
            </TabsContent>
            <TabsContent value="aws" className="pt-4">
              <AwsForm onCreated={onCreated} />
            </TabsContent>
            <TabsContent value="azure" className="pt-4">
              <AzureForm onCreated={onCreated} />
            </TabsContent>
          </Tabs>
        )}
      </DialogContent>
    </Dialog>
  );
}
