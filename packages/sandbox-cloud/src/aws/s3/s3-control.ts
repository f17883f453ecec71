import { header } from "../../http/types";
import { AwsError } from "../common";
import type { S3Operation, S3Request } from "./s3-api";
import {
  emptyOk,
  FLAGS,
  type PublicAccessBlock,
  perform,
  readPublicAccessBlock,
} from "./s3-bucket-configuration";
import { accessDenied, elements, xmlResult } from "./s3-xml";

/**
 * S3 Control's account-level Block Public Access
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_control_PutPublicAccessBlock.html,
 * API_control_GetPublicAccessBlock.html, API_control_DeletePublicAccessBlock.html), authorised as
 * s3:PutAccountPublicAccessBlock / s3:GetAccountPublicAccessBlock on no resource ("*"). Signed for
 * the service `s3`; the account is the `x-amz-account-id` header.
 */
const PATH = "/v20180820/configuration/publicAccessBlock";
const S3_CONTROL_XMLNS = "http://awss3control.amazonaws.com/doc/2018-08-20/";

const onAccount = (r: S3Request, verb: string) => r.req.method.toUpperCase() === verb && r.req.path === PATH;

/** The account the request names: it must be the caller's (no policy lets another account's principal in). */
function account(r: S3Request, ctxAccounts: { id: string; publicAccessBlock?: Record<string, boolean> }[]) {
  const id = header(r.req, "x-amz-account-id") ?? "";
  if (!/^\d{12}$/.test(id)) {
    throw new AwsError("InvalidRequest", "x-amz-account-id must be a 12-digit account id.", 400);
  }
  const found = ctxAccounts.find((a) => a.id === id);
  if (!found || id !== r.caller.accountId) throw accessDenied();
  return found;
}

const host = (r: S3Request) => `${r.caller.accountId}.s3-control.${r.caller.region}.amazonaws.com`;

export const S3_CONTROL_OPERATIONS: S3Operation[] = [
  {
    name: "PutAccountPublicAccessBlock",
    matches: (r) => onAccount(r, "PUT"),
    run(ctx, r) {
      const target = account(r, ctx.store.state.aws.accounts);
      const config = readPublicAccessBlock(r.req.body.toString());
      perform(
        ctx,
        r,
        {
          action: "s3:PutAccountPublicAccessBlock",
          resource: "*",
          requestParameters: {
            PublicAccessBlockConfiguration: { xmlns: S3_CONTROL_XMLNS, ...config },
            Host: host(r),
          },
        },
        () => {
          target.publicAccessBlock = config;
          return { result: undefined, responseElements: null };
        },
      );
      return emptyOk();
    },
  },
  {
    name: "GetAccountPublicAccessBlock",
    matches: (r) => onAccount(r, "GET"),
    run(ctx, r) {
      const target = account(r, ctx.store.state.aws.accounts);
      const config = perform(
        ctx,
        r,
        { action: "s3:GetAccountPublicAccessBlock", resource: "*", requestParameters: { Host: host(r) } },
        () => {
          if (!target.publicAccessBlock) {
            throw new AwsError(
              "NoSuchPublicAccessBlockConfiguration",
              "The public access block configuration was not found",
              404,
              { AccountId: target.id },
            );
          }
          return { result: target.publicAccessBlock as PublicAccessBlock, responseElements: null };
        },
      );
      return xmlResult(
        `<PublicAccessBlockConfiguration>${elements(FLAGS.map((f) => [f, config[f]]))}</PublicAccessBlockConfiguration>`,
      );
    },
  },
  {
    name: "DeleteAccountPublicAccessBlock",
    matches: (r) => onAccount(r, "DELETE"),
    run(ctx, r) {
      const target = account(r, ctx.store.state.aws.accounts);
      perform(
        ctx,
        r,
        {
          action: "s3:PutAccountPublicAccessBlock",
          eventName: "DeleteAccountPublicAccessBlock",
          resource: "*",
          requestParameters: { Host: host(r) },
        },
        () => {
          delete target.publicAccessBlock;
          return { result: undefined, responseElements: null };
        },
      );
      return emptyOk(204);
    },
  },
];
