import type { Effect } from "../enforce/aws-request";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import { declarativeDenial, dryRunSucceeded, ec2SettingCall, invalidParameter } from "./ec2-account-settings";
import type { BlockPublicAccess } from "./ec2-block-public-access";
import {
  applyPermissions,
  makesPublic,
  ownResource,
  permissionChange,
  permissionParameters,
  SHAREABLE_TYPE,
} from "./ec2-sharing";
import type { WireCaller } from "./wire-caller";

/**
 * What ModifyImageAttribute and ModifySnapshotAttribute share in the sandbox: the resource must be
 * the caller's, in the caller's Region; only its sharing attribute can be modified; sharing it with
 * the group `all` is refused while the Region's block public access for it blocks sharing, with the
 * policy's `exception_message` when a declarative policy sets that block. The documentation names no
 * error code for this refusal; the sandbox answers `UnauthorizedOperation`. Each action's own file
 * cites its pages.
 */
export interface SharingAttribute {
  action: string;
  /** The Query parameter naming the resource, and CloudTrail's field for it. */
  idParameter: string;
  idField: string;
  kind: keyof typeof SHAREABLE_TYPE;
  /** The permission structure and the `Attribute` value that name the sharing attribute. */
  structure: string;
  attribute: string;
  /** CloudTrail's `attributeType` of the change. */
  attributeType: string;
  /** Query parameters that modify other attributes, refused as `Attribute` naming one is. */
  otherParameters: readonly string[];
  /** The resource as the refusal of another attribute names it, e.g. `an image's`. */
  owner: string;
  notFound: (id: string | null) => AwsError;
  blockPublicAccess: BlockPublicAccess;
  /** What a block refuses, e.g. `be made public`. */
  refused: string;
  /** How the refusal of the account's own block words its state. */
  ownState: (state: string) => string;
  answer: Effect<string>;
}

export function modifySharingAttribute(
  store: StateStore,
  who: WireCaller,
  params: URLSearchParams,
  spec: SharingAttribute,
): string {
  const id = params.get(spec.idParameter);
  const change = permissionChange(params, spec.structure, spec.attribute);
  return ec2SettingCall(
    store,
    who,
    spec.action,
    { [spec.idField]: id, [spec.attribute]: permissionParameters(change), attributeType: spec.attributeType },
    params,
    (effective, dryRun) => {
      const resource = ownResource(store, who, SHAREABLE_TYPE[spec.kind], id);
      if (!resource) throw spec.notFound(id);
      const attribute = params.get("Attribute");
      if ((attribute && attribute !== spec.attribute) || spec.otherParameters.some((p) => params.has(p)))
        throw invalidParameter(`The sandbox modifies only ${spec.owner} ${spec.attribute} attribute.`);
      if (makesPublic(change)) {
        const { what } = spec.blockPublicAccess;
        const { state, managed } = spec.blockPublicAccess.state(store, who, effective);
        if (state !== "unblocked" && managed)
          throw declarativeDenial(effective, `${what} is ${state}: ${id} cannot ${spec.refused}`);
        if (state !== "unblocked")
          throw new AwsError(
            "UnauthorizedOperation",
            `B${what.slice(1)} is ${spec.ownState(state)} in this Region: ${id} cannot ${spec.refused}.`,
            403,
          );
      }
      if (dryRun) throw dryRunSucceeded();
      applyPermissions(resource, change);
      return spec.answer;
    },
    [{ arn: `arn:aws:ec2:${who.signed.region}::${spec.kind}/${id ?? "*"}` }],
  );
}
