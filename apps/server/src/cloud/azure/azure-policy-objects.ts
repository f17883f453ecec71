import type { AzurePolicyExemptionResource } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { AzureCloudProvider } from "../cloud-provider";
import { isNotFound } from "../errors";
import type { AzureClients } from "./azure-clients";
import { parseAssignmentId, parseDefinitionId } from "./azure-resource-ids";

const EXEMPTION_API_VERSION = "2022-07-01-preview";
const ASSIGNMENT_API_VERSION = "2023-04-01";

type PolicyObjectOperations = Pick<
  AzureCloudProvider,
  | "putDefinition"
  | "removeDefinition"
  | "putAssignment"
  | "removeAssignment"
  | "assignmentExists"
  | "putExemption"
  | "removeExemption"
  | "listExemptions"
>;

/** Policy definitions, assignments and exemptions; removing one already gone is not an error. */
export function createPolicyObjectOperations({
  resources,
  tenantPolicy,
  clientsFor,
  call,
  collect,
  nextLinkPages,
  armEndpoint,
}: AzureClients): PolicyObjectOperations {
  async function ignoreMissing(run: () => Promise<unknown>, codes: string[]): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!isNotFound(error, codes)) throw error;
    }
  }

  return {
    async putDefinition(definition) {
      const target = parseDefinitionId(definition.id);
      const body = { ...definition.properties };
      const out =
        target.kind === "managementGroup"
          ? await call(() =>
              tenantPolicy.policyDefinitions.createOrUpdateAtManagementGroup(target.id, target.name, body),
            )
          : await call(() =>
              clientsFor(target.id).policy.policyDefinitions.createOrUpdate(target.name, body),
            );
      return out.id ?? definition.id;
    },
    async removeDefinition(definitionId) {
      const target = parseDefinitionId(definitionId);
      await ignoreMissing(
        () =>
          target.kind === "managementGroup"
            ? call(() => tenantPolicy.policyDefinitions.deleteAtManagementGroup(target.id, target.name))
            : call(() => clientsFor(target.id).policy.policyDefinitions.delete(target.name)),
        ["PolicyDefinitionNotFound"],
      );
    },
    async putAssignment(assignment) {
      const { scope, name } = parseAssignmentId(assignment.id);
      const { scope: _scope, ...body } = assignment.properties;
      const out = await call(() => tenantPolicy.policyAssignments.create(scope, name, body));
      return out.id ?? assignment.id;
    },
    async removeAssignment(assignmentId) {
      parseAssignmentId(assignmentId);
      // arm-policy's delete fails to read ARM's empty 204 for an assignment already gone; the
      // generic DELETE of the same resource id handles it.
      await ignoreMissing(
        () => call(() => resources.resources.beginDeleteByIdAndWait(assignmentId, ASSIGNMENT_API_VERSION)),
        ["PolicyAssignmentNotFound"],
      );
    },
    async assignmentExists(assignmentId) {
      parseAssignmentId(assignmentId);
      try {
        await call(() => resources.resources.getById(assignmentId, ASSIGNMENT_API_VERSION));
        return true;
      } catch (error) {
        if (isNotFound(error, ["PolicyAssignmentNotFound"])) return false;
        throw error;
      }
    },
    async putExemption(exemption: AzurePolicyExemptionResource) {
      // arm-policy has no exemption operations; an exemption is a plain ARM extension resource.
      const out = await call(() =>
        resources.resources.beginCreateOrUpdateByIdAndWait(exemption.id, EXEMPTION_API_VERSION, {
          properties: { ...exemption.properties },
        }),
      );
      return out.id ?? exemption.id;
    },
    async listExemptions(scope) {
      // arm-policy has no exemption operations: the list is read as ARM answers it, page by page.
      const items = await collect((settings) =>
        nextLinkPages<{ id?: string; properties?: { policyAssignmentId?: string } }>(
          {
            url: `${armEndpoint}${scope}/providers/Microsoft.Authorization/policyExemptions?api-version=${EXEMPTION_API_VERSION}`,
            method: "GET",
            nextLinkName: "nextLink",
          },
          settings,
        ),
      );
      return items.flatMap((item) =>
        item.id ? [{ id: item.id, policyAssignmentId: item.properties?.policyAssignmentId ?? "" }] : [],
      );
    },
    async removeExemption(exemptionId) {
      await ignoreMissing(
        () => call(() => resources.resources.beginDeleteByIdAndWait(exemptionId, EXEMPTION_API_VERSION)),
        ["PolicyExemptionNotFound"],
      );
    },
  };
}
