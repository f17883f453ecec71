import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { POLICY_TYPES, type PolicyLimitValues } from "../forms/policy-limits-form";
import { Field } from "./field";

/**
 * The organisation's quotas per AWS policy type, only where AWS raised them: Palisade packs its
 * policies within them, and AWS does not report them through its API.
 */
export function PolicyLimitFields<T extends PolicyLimitValues>({
  id,
  register,
  errors,
}: {
  id: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<PolicyLimitValues>;
}) {
  const reg = register as unknown as UseFormRegister<PolicyLimitValues>;
  return (
    <fieldset className="space-y-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Quotas per policy type</legend>
      <p className="text-xs text-muted-foreground">
        Only if AWS raised a quota for your organisation (Service Quotas in us-east-1); AWS's default when
        empty.
      </p>
      {POLICY_TYPES.map(({ key, label, short, perTarget, characters }) => (
        <div key={key} className="grid gap-3 sm:grid-cols-2" data-testid={`policy-limits-${key}`}>
          <Field
            id={`${id}-${key}-characters`}
            label={`${label}: characters each`}
            hint={`${characters.toLocaleString("en")} when empty.`}
            error={errors[`${key}MaxCharacters`]?.message}
          >
            <Input
              id={`${id}-${key}-characters`}
              inputMode="numeric"
              placeholder={String(characters)}
              aria-invalid={!!errors[`${key}MaxCharacters`]}
              {...reg(`${key}MaxCharacters`)}
            />
          </Field>
          <Field
            id={`${id}-${key}-per-target`}
            label={`${short}s per root, OU or account`}
            hint={`${perTarget} when empty.`}
            error={errors[`${key}MaxPerTarget`]?.message}
          >
            <Input
              id={`${id}-${key}-per-target`}
              inputMode="numeric"
              placeholder={String(perTarget)}
              aria-invalid={!!errors[`${key}MaxPerTarget`]}
              {...reg(`${key}MaxPerTarget`)}
            />
          </Field>
        </div>
      ))}
    </fieldset>
  );
}
