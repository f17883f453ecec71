import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { durationSeconds, type WaiverRequestValues } from "../forms/waiver-request-schema";
import { connectQueryKey, createWaiver } from "./waiver-rpc";

const refreshedAfterCreate = [
  connectQueryKey("palisade.waiver.v1.WaiverService", "Summary"),
  connectQueryKey("palisade.waiver.v1.WaiverService", "List"),
  connectQueryKey("palisade.policy.v1.PolicyService", "GetPolicies"),
];

/** crypto.randomUUID needs a secure context; a self-hosted server may be reached over plain HTTP. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

export function useCreateWaiver() {
  const queryClient = useQueryClient();
  const lastSubmit = useRef<{ values: string; idempotencyKey: string } | null>(null);
  /** A second submit of the same values (double click, retry after a lost answer) reuses the key. */
  const idempotencyKeyFor = (values: WaiverRequestValues) => {
    const serialized = JSON.stringify([
      values.policyKey.trim().toUpperCase(),
      values.duration,
      values.comment.trim(),
    ]);
    if (lastSubmit.current?.values !== serialized) {
      lastSubmit.current = { values: serialized, idempotencyKey: randomKey() };
    }
    return lastSubmit.current.idempotencyKey;
  };
  return useMutation({
    mutationFn: (values: WaiverRequestValues) =>
      createWaiver({
        key: values.policyKey,
        durationSeconds: durationSeconds(values.duration),
        comment: values.comment,
        idempotencyKey: idempotencyKeyFor(values),
      }),
    onSuccess: () =>
      Promise.all(refreshedAfterCreate.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
