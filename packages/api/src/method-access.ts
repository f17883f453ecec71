import { type DescMethod, getOption, hasOption } from "@bufbuild/protobuf";
import { access, type Permission } from "./gen/palisade/auth/v1/auth_pb";

export type MethodAccessRule = {
  // Callable without sign-in.
  public: boolean;
  // All of these are required. An empty list on a non-public method means "any signed-in
  // member of the tenant, no particular permission" (e.g. TenantService.GetCurrent).
  permissions: Permission[];
  // Any signed-in person, a member of a tenant or not, acting on their own account; never an
  // API key. Lists no permissions.
  account: boolean;
};

// The access rule a method declares in the contract with `option (palisade.auth.v1.access)`.
// A method without the option, or one claiming to be public while listing permissions, is a
// contract error, as is an account method that is also public or lists permissions: the server
// refuses to start rather than guess.
export function methodAccess(method: DescMethod): MethodAccessRule {
  // Asked on every call: read from the descriptor's options once per method.
  let rule = rules.get(method);
  if (!rule) {
    rule = readMethodAccess(method);
    rules.set(method, rule);
  }
  return rule;
}

const rules = new WeakMap<DescMethod, Readonly<MethodAccessRule>>();

function readMethodAccess(method: DescMethod): Readonly<MethodAccessRule> {
  if (!hasOption(method, access)) {
    throw new Error(`${method.parent.typeName}.${method.name} does not declare (palisade.auth.v1.access)`);
  }
  const declared = getOption(method, access);
  if (declared.public && declared.permissions.length > 0) {
    throw new Error(`${method.parent.typeName}.${method.name} is public and also lists permissions`);
  }
  if (declared.account && (declared.public || declared.permissions.length > 0)) {
    throw new Error(
      `${method.parent.typeName}.${method.name} is an account method and also public or lists permissions`,
    );
  }
  return Object.freeze({
    public: declared.public,
    account: declared.account,
    permissions: Object.freeze([...declared.permissions]) as Permission[],
  });
}
