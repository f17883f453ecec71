import { useMutation } from "@connectrpc/connect-query";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";

/** The settings and name are read from GetCurrent (the shell's tenant switcher shows the name too). */
export function useUpdateTenantSettings() {
  const queryClient = useQueryClient();
  return useMutation(TenantService.method.updateSettings, {
    onSuccess: () => invalidateMethods(queryClient, [TenantService.method.getCurrent]),
  });
}
