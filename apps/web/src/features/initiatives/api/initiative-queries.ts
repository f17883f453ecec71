import { createQueryOptions } from "@connectrpc/connect-query";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { appTransport } from "@/lib/transport";

export function initiativesQuery() {
  return createQueryOptions(
    InitiativeService.method.listInitiatives,
    { pagination: { position: { case: "page", value: 1 }, limit: 200 } },
    { transport: appTransport },
  );
}

export function initiativeQuery(id: string) {
  return createQueryOptions(
    InitiativeService.method.getInitiative,
    { lookup: { case: "slug", value: id } },
    { transport: appTransport },
  );
}

export function initiativePoliciesQuery(initiative: string, clause: string | undefined) {
  return createQueryOptions(
    InitiativeService.method.listInitiativePolicies,
    { initiative, clause, pagination: { position: { case: "page", value: 1 }, limit: 200 } },
    { transport: appTransport },
  );
}
