import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AuditSearch } from "../audit-search";

const FIELDS = [
  { key: "action", label: "Action", placeholder: "ChangeRole" },
  { key: "targetType", label: "Target type", placeholder: "bundle, member, api_key…" },
  { key: "target", label: "Target id", placeholder: "" },
  { key: "actor", label: "Actor id", placeholder: "" },
] as const;

/** The filters, applied to the page's address (so a filtered view is a link to share). */
export function AuditFilters({ search }: { search: AuditSearch }) {
  const navigate = useNavigate({ from: "/settings/audit-log" });
  const [draft, setDraft] = useState<AuditSearch>(search);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const clean = Object.fromEntries(
      Object.entries(draft).map(([k, v]) => [k, typeof v === "string" && v.trim() === "" ? undefined : v]),
    );
    void navigate({ search: { ...clean, page: undefined } });
  };
  return (
    <form
      onSubmit={apply}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
      aria-label="Audit log filters"
    >
      {FIELDS.map(({ key, label, placeholder }) => (
        <div key={key} className="grid gap-1.5">
          <Label htmlFor={`audit-${key}`}>{label}</Label>
          <Input
            id={`audit-${key}`}
            value={draft[key] ?? ""}
            placeholder={placeholder}
            maxLength={200}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          />
        </div>
      ))}
      <div className="grid gap-1.5">
        <Label htmlFor="audit-from">From (your time zone)</Label>
        <Input
          id="audit-from"
          type="datetime-local"
          value={draft.from ?? ""}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="audit-to">To (your time zone)</Label>
        <Input
          id="audit-to"
          type="datetime-local"
          value={draft.to ?? ""}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <Button type="submit">Apply filters</Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setDraft({});
            void navigate({ search: {} });
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
