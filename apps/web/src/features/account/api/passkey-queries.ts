import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuthFailure } from "@/lib/auth-error";
import { authMethodsClient } from "@/lib/auth-methods-client";

/** A passkey as the account page lists it. */
export interface PasskeyItem {
  id: string;
  name: string | null;
  createdAt: Date | null;
  deviceType: string;
  backedUp: boolean;
}

const passkeysKey = ["account", "passkeys"] as const;

/** Thrown for a refused passkey call, so a query or mutation carries the server's answer. */
export class PasskeyCallError extends Error {
  constructor(readonly failure: AuthFailure) {
    super(failure.message || "The passkey request failed.");
    this.name = "PasskeyCallError";
  }
}

export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: async (): Promise<PasskeyItem[]> => {
      const { data, error } = await authMethodsClient.passkey.listUserPasskeys();
      if (error) throw new PasskeyCallError(error);
      return (data ?? []).map((p) => ({
        id: p.id,
        name: p.name ?? null,
        createdAt: p.createdAt ? new Date(p.createdAt) : null,
        deviceType: p.deviceType,
        backedUp: p.backedUp,
      }));
    },
  });
}

function usePasskeyMutation<T>(call: (input: T) => Promise<{ error: AuthFailure | null }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => {
      const { error } = await call(input);
      if (error) throw new PasskeyCallError(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/** Creates a passkey on this device (the browser asks the authenticator) and stores it. */
export function useAddPasskey() {
  return usePasskeyMutation((name: string) => authMethodsClient.passkey.addPasskey({ name }));
}

export function useRenamePasskey() {
  return usePasskeyMutation((input: { id: string; name: string }) =>
    authMethodsClient.passkey.updatePasskey(input),
  );
}

export function useDeletePasskey() {
  return usePasskeyMutation((id: string) => authMethodsClient.passkey.deletePasskey({ id }));
}
