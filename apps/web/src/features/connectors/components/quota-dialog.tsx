import { zodResolver } from "@hookform/resolvers/zod";
import type { Connector } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { GaugeIcon, LoaderIcon } from "lucide-react";
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
import { errorText } from "@/lib/error-text";
import { useUpdateConnector } from "../api/connector-queries";
import {
  type PolicyLimitValues,
  policyLimitsOf,
  policyLimitsSchema,
  policyLimitValuesOf,
} from "../forms/policy-limits-form";
import { PolicyLimitFields } from "./policy-limit-fields";

/** Edits an AWS connector's quotas per policy type; its other settings are sent back unchanged. */
export function QuotaDialog({ connector }: { connector: Connector }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const update = useUpdateConnector();
  const kind = connector.config?.kind;
  const aws = kind?.case === "aws" ? kind.value : undefined;
  const form = useForm<PolicyLimitValues>({
    resolver: zodResolver(policyLimitsSchema),
    mode: "onTouched",
    values: aws ? policyLimitValuesOf(aws) : undefined,
  });
  if (!aws) return null;
  const onSubmit = form.handleSubmit(async (values) => {
    await update.mutateAsync({
      id: connector.entity?.id ?? "",
      config: {
        kind: {
          case: "aws",
          value: {
            managementAccountId: aws.managementAccountId,
            roleArn: aws.roleArn,
            region: aws.region,
            trail: aws.trail,
            policyLimits: policyLimitsOf(values),
          },
        },
      },
    });
    setOpen(false);
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <GaugeIcon />
          Quotas
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Quotas of {connector.name}</DialogTitle>
          <DialogDescription>
            Palisade packs its policies on each root, OU and account within these quotas.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <PolicyLimitFields id={id} register={form.register} errors={form.formState.errors} />
          {update.error ? (
            <p role="alert" className="text-sm text-destructive">
              {errorText(update.error)}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending && <LoaderIcon className="animate-spin" />}
              Save quotas
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
