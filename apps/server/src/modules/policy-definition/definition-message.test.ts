import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  Category,
  Enforcer,
  ParameterType,
  PolicyDefinitionSchema,
  PolicyDefinitionState,
  Score,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { parseSubmittedDefinition } from "@palisade/policy-engine/catalogue/submitted-definition";
import { describe, expect, it } from "vitest";
import { definitionDocument, definitionMessage, excludedFields } from "./definition-message";

const catalogue = parseCatalogue(readCatalogueFiles());
const context = {
  frameworks: catalogue.frameworks,
  aliases: catalogue.aliases,
  definitions: catalogue.bySlug,
};
const notInstalled = { state: PolicyDefinitionState.NOT_INSTALLED };

describe("definitionMessage", () => {
  it("maps the catalogue's names to the contract's enums", () => {
    const regions = catalogue.bySlug.get("deny-regions-outside-allowlist");
    if (!regions) throw new Error("catalogue lacks deny-regions-outside-allowlist");
    const message = definitionMessage(regions, {
      state: PolicyDefinitionState.ALERT,
      createdAt: new Date(0),
    });
    expect(message.enforcer).toBe(Enforcer.AWS_SCP);
    expect(message.supportedProvider).toBe(CloudProvider.AWS);
    expect(Category[message.category]?.toLowerCase()).toBe(regions.category);
    expect(Score[message.securityScore]?.toLowerCase()).toBe(regions.security_score);
    expect(message.state).toBe(PolicyDefinitionState.ALERT);
    const [parameter] = message.parameterDefinitions;
    expect(parameter?.type).toBe(ParameterType.ARRAY);
    expect(parameter?.defaultValue?.kind.case).toBe("listValue");
    expect(message.tree?.node.case).toBeDefined();
    expect(message.createdAt?.seconds).toBe(0n);
  });

  it("leaves out excluded fields", () => {
    const definition = catalogue.definitions[0];
    if (!definition) throw new Error("empty catalogue");
    const message = definitionMessage(
      definition,
      notInstalled,
      excludedFields(["description", "tree", "providerData"]),
    );
    expect(message.description).toBe("");
    expect(message.tree).toBeUndefined();
    expect(message.providerData).toBeUndefined();
    expect(message.displayName).toBe(definition.display_name);
  });

  it("round-trips every catalogue definition through the wire and the catalogue's check", () => {
    for (const definition of catalogue.definitions) {
      const wire = fromBinary(
        PolicyDefinitionSchema,
        toBinary(PolicyDefinitionSchema, definitionMessage(definition, notInstalled)),
      );
      const result = parseSubmittedDefinition(definitionDocument(wire), context);
      if (!result.ok) throw new Error(`${definition.slug}: ${JSON.stringify(result.problems)}`);
      const expected =
        definition.enforcer === "azure_policy"
          ? {
              ...definition,
              provider_data: { azure_policy: { mode: definition.provider_data.azure_policy?.mode ?? "All" } },
            }
          : definition;
      expect(result.definition).toEqual({ ...expected, cases: [] });
    }
  });
});

describe("definitionDocument", () => {
  it("leaves unset enums absent so the check names them", () => {
    const document = definitionDocument(create(PolicyDefinitionSchema, { slug: "x" }));
    expect(document.enforcer).toBeUndefined();
    expect(document.category).toBeUndefined();
    expect(document.tree).toBeUndefined();
  });

  it("refuses a parameter value that holds nothing, naming it", () => {
    const message = create(PolicyDefinitionSchema, {
      parameterDefinitions: [{ name: "limit", defaultValue: create(ValueSchema) }],
    });
    let error: ConnectError | undefined;
    try {
      definitionDocument(message);
    } catch (caught) {
      error = ConnectError.from(caught);
    }
    expect(error?.code).toBe(Code.InvalidArgument);
    expect(error?.rawMessage).toMatch(/^policy_definition\.parameter_definitions\[0\]\.default_value:/);
  });
});

describe("excludedFields", () => {
  it.each([
    [
      ["tree", "provider_data"],
      ["tree", "provider_data"],
    ],
    [["furtherReadingUrls"], ["further_reading_urls"]],
    [[], []],
  ])("reads %j", (paths, expected) => {
    expect([...excludedFields(paths)]).toEqual(expected);
  });

  it("refuses a field PolicyDefinition does not have", () => {
    expect(() => excludedFields(["cases"])).toThrow(/exclude_mask: "cases" is not a field/);
  });
});
