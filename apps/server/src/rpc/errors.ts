import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  ErrorDetailSchema,
  FieldViolationSchema,
  ProductErrorCode,
} from "@palisade/api/gen/palisade/common/v1/common_pb";

/** One problem with one input field, named by its path in the request ("parameters.port"). */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface ErrorDetails {
  /** The specification's product error code (section 8), when one applies. */
  product?: ProductErrorCode;
  /** The sentence for the product error; defaults to the error's message. */
  productMessage?: string;
  /** Input fields at fault, so a form shows each problem beside its field. */
  fields?: readonly FieldProblem[];
  /** The caller's tenant requires MFA that the caller has not set up yet. */
  mfaSetupRequired?: boolean;
}

/**
 * The one way an RPC fails: a ConnectError with a real code and a message a person can act on,
 * carrying an ErrorDetail (product error code and field violations) when there is one. The web
 * reads that detail with one helper for both of its clients.
 */
export function callError(code: Code, message: string, details: ErrorDetails = {}): ConnectError {
  const {
    product = ProductErrorCode.UNSPECIFIED,
    productMessage,
    fields = [],
    mfaSetupRequired = false,
  } = details;
  if (product === ProductErrorCode.UNSPECIFIED && fields.length === 0 && !mfaSetupRequired)
    return new ConnectError(message, code);
  return new ConnectError(message, code, undefined, [
    {
      desc: ErrorDetailSchema,
      value: create(ErrorDetailSchema, {
        code: product,
        message: productMessage ?? message,
        fieldViolations: fields.map((f) => create(FieldViolationSchema, f)),
        mfaSetupRequired,
      }),
    },
  ]);
}

/** Bad input. With `fields`, each problem is also attached to the field it concerns. */
export function invalidArgument(message: string, fields?: readonly FieldProblem[]): ConnectError {
  return callError(Code.InvalidArgument, message, { fields });
}

/** Bad input in one field: the message names the field first ("name: required."). */
export function invalidField(field: string, problem: string): ConnectError {
  return invalidArgument(`${field}: ${problem}`, [{ field, message: problem }]);
}
