import { useEffect, useId, useRef, useState } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { useWaiverScopes } from "../api/waiver-request-queries";
import type { WaiverScopeJson } from "../api/waiver-rpc";
import type { DenyMessageScope } from "../forms/pasted-deny-message";
import { waiverScopeLabel } from "../waiver-scope";

const searchDebounceMs = 300;
/** Below this many scopes the list is short enough to pick from without searching. */
const searchFrom = 10;

/**
 * Where the waiver applies: every scope the policy is deployed to, or one account, subscription or
 * resource group under them, by name. A scope named in a pasted deny message is chosen for the
 * requester when the policy covers it. For a guardrail the cloud service enforces itself (an AWS
 * declarative policy), only accounts are offered, and the page says before submitting that the
 * waiver exempts the whole account.
 */
export function WaiverScopePicker({
  policyKey,
  hint,
  value,
  onChange,
  wholeAccount = false,
}: {
  policyKey: string;
  /** The waiver exempts one whole account: no "everywhere", and the page says so. */
  wholeAccount?: boolean;
  hint: DenyMessageScope | null;
  value: string;
  onChange: (scope: { id: string; label: string }) => void;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const debouncedSearch = useDebouncedValue(search, searchDebounceMs);
  const list = useWaiverScopes(policyKey, debouncedSearch);
  const hinted = useWaiverScopes(hint ? policyKey : "", hint?.search ?? "");
  // Labels of scopes seen, so a chosen one keeps its name while another search is shown.
  const [known, setKnown] = useState<Record<string, string>>({});
  const appliedHint = useRef<string | null>(null);

  useEffect(() => {
    const scopes = [...(list.data?.scopes ?? []), ...(hinted.data?.scopes ?? [])];
    if (scopes.length === 0) return;
    setKnown((current) => {
      const next = { ...current };
      for (const scope of scopes) next[scope.externalId ?? ""] = waiverScopeLabel(scope);
      return next;
    });
  }, [list.data, hinted.data]);

  useEffect(() => {
    if (!hint || !hinted.data) return;
    const mark = `${policyKey}\u0000${hint.candidates.join("\u0000")}`;
    if (appliedHint.current === mark) return;
    appliedHint.current = mark;
    const scopes = hinted.data.scopes ?? [];
    const match = hint.candidates
      .map((candidate) => scopes.find((s) => s.externalId?.toLowerCase() === candidate.toLowerCase()))
      .find((scope): scope is WaiverScopeJson => scope !== undefined);
    if (match) onChange({ id: match.externalId ?? "", label: waiverScopeLabel(match) });
  }, [hint, hinted.data, policyKey, onChange]);

  if (list.isError) return null;
  const scopes = list.data?.scopes ?? [];
  const total = Number(list.data?.total ?? 0);
  const searching = debouncedSearch.trim().length >= 2;
  const showSearch = searching || search !== "" || total > searchFrom;
  const chosenListed = value === "" || scopes.some((s) => s.externalId === value);

  return (
    <div className="space-y-2" data-testid="waiver-scope">
      <Label htmlFor={`${id}-scope`}>Where the waiver applies</Label>
      {showSearch && (
        <Input
          type="search"
          aria-label="Search accounts, subscriptions and resource groups"
          placeholder="Search by name or id"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      )}
      <select
        id={`${id}-scope`}
        name="scope"
        className="h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-50"
        value={value}
        title={value || undefined}
        // Usable as soon as the policy's scopes are known; "Everywhere" holds until then.
        disabled={list.isPending}
        aria-busy={list.isPending}
        aria-describedby={`${id}-scope-help`}
        onChange={(event) => {
          const next = event.target.value;
          onChange({ id: next, label: next ? (known[next] ?? next) : "" });
        }}
      >
        <option value="">{wholeAccount ? "Choose the account" : "Everywhere this policy applies"}</option>
        {!chosenListed && <option value={value}>{known[value] ?? value}</option>}
        {scopes.map((scope) => (
          <option key={scope.externalId} value={scope.externalId} title={scope.externalId}>
            {waiverScopeLabel(scope)}
          </option>
        ))}
      </select>
      <p id={`${id}-scope-help`} className="text-sm text-muted-foreground">
        {wholeAccount ? (
          <span data-testid="whole-account-waiver">
            This guardrail is enforced by EC2 itself: a waiver exempts the whole account{" "}
            {value ? <span title={value}>{known[value] ?? value}</span> : "you choose"} until it expires, for
            everyone in it.
          </span>
        ) : value ? (
          <>
            Only <span title={value}>{known[value] ?? value}</span> is waived; the policy stays in force
            elsewhere. <span className="font-mono text-xs break-all">{value}</span>
          </>
        ) : (
          "Choose the account, subscription or resource group you were denied in, so the policy stays in force elsewhere."
        )}
      </p>
      {searching && total === 0 && !list.isPending && (
        <p className="text-sm text-muted-foreground" role="status">
          No account, subscription or resource group of this policy matches “{debouncedSearch.trim()}”.
        </p>
      )}
      {total > scopes.length && (
        <p className="text-sm text-muted-foreground" role="status">
          Showing {scopes.length} of {total}; search by name or id to find the others.
        </p>
      )}
    </div>
  );
}
