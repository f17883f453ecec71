import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export function ssoSettingsQuery() {
  return createQueryOptions(SsoService.method.getSettings, {}, { transport: appTransport });
}

export function useUpdateSso() {
  const queryClient = useQueryClient();
  return useMutation(SsoService.method.updateSettings, {
    onSuccess: () => invalidateMethods(queryClient, [SsoService.method.getSettings]),
  });
}

export function useCheckSsoDomain() {
  const queryClient = useQueryClient();
  return useMutation(SsoService.method.checkDomainRecord, {
    onSuccess: () => invalidateMethods(queryClient, [SsoService.method.getSettings]),
  });
}

export function useVerifySsoDomain() {
  const queryClient = useQueryClient();
  return useMutation(SsoService.method.setDomainVerified, {
    onSuccess: () => invalidateMethods(queryClient, [SsoService.method.getSettings]),
  });
}
