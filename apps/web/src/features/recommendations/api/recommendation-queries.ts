import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export const RECOMMENDATIONS_PAGE_SIZE = 30;

export function recommendationsQuery(options: { archived: boolean; page: number; search?: string }) {
  return createQueryOptions(
    RecommendationService.method.listRecommendations,
    {
      archived: options.archived,
      search: options.search || undefined,
      pagination: { position: { case: "page", value: options.page }, limit: RECOMMENDATIONS_PAGE_SIZE },
    },
    { transport: appTransport },
  );
}

export function recommendationQuery(id: string) {
  return createQueryOptions(
    RecommendationService.method.getRecommendation,
    { id },
    { transport: appTransport },
  );
}

const changedByRecommendation = [
  RecommendationService.method.listRecommendations,
  RecommendationService.method.getRecommendation,
];

export function useArchiveRecommendation() {
  const queryClient = useQueryClient();
  return useMutation(RecommendationService.method.archiveRecommendation, {
    onSuccess: () => invalidateMethods(queryClient, changedByRecommendation),
  });
}

export function useUnarchiveRecommendation() {
  const queryClient = useQueryClient();
  return useMutation(RecommendationService.method.unarchiveRecommendation, {
    onSuccess: () => invalidateMethods(queryClient, changedByRecommendation),
  });
}

export function useAddRecommendation() {
  const queryClient = useQueryClient();
  return useMutation(RecommendationService.method.addRecommendation, {
    onSuccess: () => invalidateMethods(queryClient, changedByRecommendation),
  });
}

export function useRefreshRecommendations() {
  const queryClient = useQueryClient();
  return useMutation(RecommendationService.method.refreshRecommendations, {
    onSuccess: () => invalidateMethods(queryClient, changedByRecommendation),
  });
}
