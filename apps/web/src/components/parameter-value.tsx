/** A parameter's value for reading: lists as lists, yes/no for booleans, objects as labelled pairs. */
export function ParameterValue({ value }: { value: unknown }) {
  if (value === undefined || value === null || value === "") return <>—</>;
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>None</>;
    return (
      <ul className="list-disc space-y-0.5 pl-4">
        {value.map((item, i) => (
          // Values may repeat; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: a list of plain values
          <li key={i}>
            <ParameterValue value={item} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") {
    return (
      <dl className="space-y-0.5">
        {Object.entries(value as Record<string, unknown>).map(([key, item]) => (
          <div key={key} className="flex gap-1">
            <dt className="text-muted-foreground">{key}:</dt>
            <dd>
              <ParameterValue value={item} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <>{String(value)}</>;
}
