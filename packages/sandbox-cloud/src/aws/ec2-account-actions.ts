import type { StateStore } from "../state/store";
import { getAllowedImagesSettings } from "./ec2-allowed-images";
import { IMAGE_BLOCK_PUBLIC_ACCESS } from "./ec2-image-block-public-access";
import { createImage, modifyImageAttribute } from "./ec2-images";
import { serialConsoleAccess } from "./ec2-serial-console";
import { SNAPSHOT_BLOCK_PUBLIC_ACCESS } from "./ec2-snapshot-block-public-access";
import { createSnapshots, modifySnapshotAttribute } from "./ec2-snapshots";
import { vpcBlockPublicAccessCall } from "./ec2-vpc-block-public-access";
import type { WireCaller } from "./wire-caller";

type Handler = (store: StateStore, who: WireCaller, action: string, params: URLSearchParams) => string;

/**
 * The EC2 actions on the account-level settings that declarative policies govern, and on the AMIs
 * and snapshots whose public sharing those settings block; each answers its response's body.
 */
export const EC2_ACCOUNT_ACTIONS: Record<string, Handler> = {
  EnableSerialConsoleAccess: serialConsoleAccess,
  DisableSerialConsoleAccess: serialConsoleAccess,
  GetSerialConsoleAccessStatus: serialConsoleAccess,
  EnableImageBlockPublicAccess: IMAGE_BLOCK_PUBLIC_ACCESS.call,
  DisableImageBlockPublicAccess: IMAGE_BLOCK_PUBLIC_ACCESS.call,
  GetImageBlockPublicAccessState: IMAGE_BLOCK_PUBLIC_ACCESS.call,
  EnableSnapshotBlockPublicAccess: SNAPSHOT_BLOCK_PUBLIC_ACCESS.call,
  DisableSnapshotBlockPublicAccess: SNAPSHOT_BLOCK_PUBLIC_ACCESS.call,
  GetSnapshotBlockPublicAccessState: SNAPSHOT_BLOCK_PUBLIC_ACCESS.call,
  ModifyVpcBlockPublicAccessOptions: vpcBlockPublicAccessCall,
  DescribeVpcBlockPublicAccessOptions: vpcBlockPublicAccessCall,
  GetAllowedImagesSettings: (store, who, _action, params) => getAllowedImagesSettings(store, who, params),
  CreateImage: (store, who, _action, params) => createImage(store, who, params),
  ModifyImageAttribute: (store, who, _action, params) => modifyImageAttribute(store, who, params),
  CreateSnapshots: (store, who, _action, params) => createSnapshots(store, who, params),
  ModifySnapshotAttribute: (store, who, _action, params) => modifySnapshotAttribute(store, who, params),
};
