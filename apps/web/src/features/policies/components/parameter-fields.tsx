import { ParameterType } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ParameterInputs, ParameterSpec } from "../forms/parameter-form";

function allowedText(spec: ParameterSpec): string {
  return spec.allowedValues.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
}

/** One field per parameter of the definition, shaped by its type; errors come keyed by parameter name. */
export function ParameterFields({
  specs,
  values,
  errors,
  onChange,
}: {
  specs: readonly ParameterSpec[];
  values: ParameterInputs;
  errors: Record<string, string>;
  onChange: (name: string, value: string | boolean) => void;
}) {
  if (specs.length === 0)
    return <p className="text-sm text-muted-foreground">This policy has no parameters.</p>;
  return (
    <div className="space-y-4">
      {specs.map((spec) => {
        const id = `parameter-${spec.name}`;
        const error = errors[spec.name];
        const value = values[spec.name];
        const describedBy = error ? `${id}-error` : `${id}-hint`;
        const scalarChoices =
          spec.allowedValues.length > 0 &&
          spec.type !== ParameterType.ARRAY &&
          spec.type !== ParameterType.BOOLEAN;
        return (
          <div key={spec.name} className="space-y-1">
            {spec.type === ParameterType.BOOLEAN ? (
              <label className="flex items-center gap-2 text-sm font-medium">
                <input
                  id={id}
                  type="checkbox"
                  checked={value === true}
                  aria-describedby={describedBy}
                  onChange={(event) => onChange(spec.name, event.target.checked)}
                />
                {spec.label}
              </label>
            ) : (
              <label htmlFor={id} className="text-sm font-medium">
                {spec.label}
              </label>
            )}
            {scalarChoices ? (
              <select
                id={id}
                className="h-9 w-full rounded-md border border-input bg-card px-2 text-sm"
                value={typeof value === "string" ? value : ""}
                aria-invalid={!!error}
                aria-describedby={describedBy}
                onChange={(event) => onChange(spec.name, event.target.value)}
              >
                <option value="">Choose…</option>
                {spec.allowedValues.map((allowed) => {
                  const text = typeof allowed === "string" ? allowed : JSON.stringify(allowed);
                  return (
                    <option key={text} value={text}>
                      {text}
                    </option>
                  );
                })}
              </select>
            ) : spec.type === ParameterType.ARRAY || spec.type === ParameterType.OBJECT ? (
              <Textarea
                id={id}
                rows={spec.type === ParameterType.OBJECT ? 6 : 4}
                className="font-mono text-xs"
                value={typeof value === "string" ? value : ""}
                aria-invalid={!!error}
                aria-describedby={describedBy}
                onChange={(event) => onChange(spec.name, event.target.value)}
              />
            ) : spec.type !== ParameterType.BOOLEAN ? (
              <Input
                id={id}
                inputMode={
                  spec.type === ParameterType.INTEGER || spec.type === ParameterType.FLOAT
                    ? "decimal"
                    : undefined
                }
                value={typeof value === "string" ? value : ""}
                aria-invalid={!!error}
                aria-describedby={describedBy}
                onChange={(event) => onChange(spec.name, event.target.value)}
              />
            ) : null}
            <p id={`${id}-hint`} className="text-xs text-muted-foreground">
              {spec.description}
              {spec.type === ParameterType.ARRAY && " One value per line."}
              {spec.type === ParameterType.ARRAY &&
                spec.allowedValues.length > 0 &&
                ` Allowed: ${allowedText(spec)}.`}
            </p>
            {error && (
              <p id={`${id}-error`} className="text-xs text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
