import { create, createFileRegistry, type DescMethod, setExtension } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { access, MethodAccessSchema, Permission } from "./gen/palisade/auth/v1/auth_pb";
import { methodAccess } from "./method-access";
import { allServices } from "./services";

const allMethods: DescMethod[] = allServices.flatMap((service) => service.methods);
const methodName = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;

// Methods callable without sign-in: the lookups of the public waiver-request page.
const expectedPublic: string[] = [];

// Permission table: specification section 6 and the design's decisions for the rest.
// "[]" means any signed-in member of the tenant.
const expectedPermissions: Record<string, (keyof typeof Permission)[]> = {
  "palisade.tenant.v1.TenantService/GetCurrent": [],
  "palisade.tenant.v1.TenantService/UpdateSettings": ["TENANT_SETTINGS_WRITE"],
};

function fakeMethod(options?: ReturnType<typeof create<typeof MethodOptionsSchema>>): DescMethod {
  const registry = createFileRegistry(
    create(FileDescriptorProtoSchema, {
      name: "fake.proto",
      package: "fake",
      syntax: "proto3",
      messageType: [{ name: "Empty" }],
      service: [
        {
          name: "FakeService",
          method: [{ name: "Do", inputType: ".fake.Empty", outputType: ".fake.Empty", options }],
        },
      ],
    }),
    () => undefined,
  );
  const method = registry.getService("fake.FakeService")?.methods[0];
  if (!method) throw new Error("fake service not built");
  return method;
}

describe("methodAccess", () => {
  it("every service is listed once", () => {
    const names = allServices.map((s) => s.typeName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(allMethods.map((m) => [methodName(m), m] as const))("%s declares its access", (_, method) => {
    expect(() => methodAccess(method)).not.toThrow();
  });

  it("public methods are exactly the waiver page lookups", () => {
    const publicMethods = allMethods.filter((m) => methodAccess(m).public).map(methodName);
    expect(publicMethods.sort()).toEqual([...expectedPublic].sort());
  });

  it("no public method lists permissions", () => {
    for (const method of allMethods) {
      const rule = methodAccess(method);
      if (rule.public) expect(rule.permissions, methodName(method)).toEqual([]);
    }
  });

  it("the permission table covers every non-public method and nothing else", () => {
    const declared = allMethods.filter((m) => !methodAccess(m).public).map(methodName);
    expect(declared.sort()).toEqual(Object.keys(expectedPermissions).sort());
  });

  it.each(Object.entries(expectedPermissions))("%s requires %j", (name, expected) => {
    const method = allMethods.find((m) => methodName(m) === name);
    expect(method, name).toBeDefined();
    if (!method) return;
    const rule = methodAccess(method);
    expect(rule.public).toBe(false);
    expect(rule.permissions.map((p) => Permission[p]).sort()).toEqual([...expected].sort());
  });

  it("rejects a method without the access option", () => {
    expect(() => methodAccess(fakeMethod())).toThrow(/does not declare/);
  });

  it("rejects a method that is public and lists permissions", () => {
    const options = create(MethodOptionsSchema);
    setExtension(
      options,
      access,
      create(MethodAccessSchema, { public: true, permissions: [Permission.POLICIES_READ] }),
    );
    expect(() => methodAccess(fakeMethod(options))).toThrow(/public and also lists permissions/);
  });
});
