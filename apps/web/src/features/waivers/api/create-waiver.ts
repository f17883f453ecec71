import { useMutation, useQueryClient } from "@tanstack/react-query";
import { durationSeconds, type WaiverRequestValues } from "../forms/waiver-request-schema";
import { connectQueryKey, createWaiver } from "./waiver-rpc";

const refreshedAfterCreate = [
  connectQueryKey("palisade.waiver.v1.WaiverService", "Summary"),
  connectQueryKey("palisade.waiver.v1.WaiverService", "List"),
  connectQueryKey("palisade.policy.v1.PolicyService", "GetPolicies"),
];

export function useCreateWaiver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: WaiverRequestValues) =>
      createWaiver({
        key: values.policyKey,
        durationSeconds: durationSeconds(values.duration),
        comment: values.comment,
      }),
    onSuccess: () =>
      Promise.all(refreshedAfterCreate.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
