import type { UseFormReturn } from "react-hook-form";
import { Input } from "@/components/ui/input";
import type { AwsConnectorValues } from "../forms/connector-form-schema";
import { Field } from "./field";

/**
 * Where the organisation's CloudTrail is: without it, Palisade reads LookupEvents, which sees
 * only the management account's own events in one region.
 */
export function TrailFields({ id, form }: { id: string; form: UseFormReturn<AwsConnectorValues> }) {
  const { errors } = form.formState;
  return (
    <fieldset className="space-y-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Organisation trail</legend>
      <p className="text-xs text-muted-foreground">
        The S3 bucket your organisation trail delivers to (typically in the log-archive account). Leave the
        bucket empty to read CloudTrail LookupEvents instead: the management account only, in one region, so
        no member account's denial is seen.
      </p>
      <Field id={`${id}-trail-bucket`} label="Trail bucket" error={errors.trailBucket?.message}>
        <Input
          id={`${id}-trail-bucket`}
          placeholder="org-cloudtrail-logs"
          {...form.register("trailBucket")}
        />
      </Field>
      <Field
        id={`${id}-trail-prefix`}
        label="Key prefix"
        hint="The trail's S3 key prefix, if it has one."
        error={errors.trailKeyPrefix?.message}
      >
        <Input id={`${id}-trail-prefix`} {...form.register("trailKeyPrefix")} />
      </Field>
      <Field
        id={`${id}-trail-region`}
        label="Bucket region"
        hint="The connector's region when empty."
        error={errors.trailBucketRegion?.message}
      >
        <Input id={`${id}-trail-region`} placeholder="eu-west-1" {...form.register("trailBucketRegion")} />
      </Field>
      <Field id={`${id}-trail-role`} label="Reader role ARN" error={errors.trailReaderRoleArn?.message}>
        <Input
          id={`${id}-trail-role`}
          placeholder="arn:aws:iam::444455556666:role/PalisadeTrailReader"
          {...form.register("trailReaderRoleArn")}
        />
      </Field>
      <Field
        id={`${id}-trail-external`}
        label="Reader role external id"
        hint="Only if the role's trust policy requires one."
        error={errors.trailReaderExternalId?.message}
      >
        <Input id={`${id}-trail-external`} {...form.register("trailReaderExternalId")} />
      </Field>
      <Field
        id={`${id}-trail-backfill`}
        label="Backfill days"
        hint="Days of log files read on the first connection; 7 when empty, at most 90."
        error={errors.trailBackfillDays?.message}
      >
        <Input
          id={`${id}-trail-backfill`}
          inputMode="numeric"
          placeholder="7"
          {...form.register("trailBackfillDays")}
        />
      </Field>
    </fieldset>
  );
}
