import type { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { RpcError, type WireDetail } from "./rpc-error";

/** The type name an ErrorDetail travels under in a Connect error's details. */
export const errorDetailType = "palisade.common.v1.ErrorDetail";

/** One problem with one input field, named by its path in the request ("parameters.port", "scopes[2]"). */
export interface FieldViolation {
  field: string;
  message: string;
}

/** palisade.common.v1.ErrorDetail as plain data: the product error code and the fields at fault. */
export interface ErrorDetail {
  code: ProductErrorCode;
  message: string;
  fieldViolations: FieldViolation[];
  /** The caller's tenant requires MFA that the caller has not set up yet. */
  mfaSetupRequired: boolean;
}

// Protobuf wire types used by ErrorDetail; the others are only skipped.
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

const utf8 = new TextDecoder();

/**
 * Reads the three fields of ErrorDetail from its binary encoding. Written by hand so that the public
 * waiver page reads product errors without loading the protobuf runtime and the API's descriptors.
 */
class WireReader {
  private pos = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly end = bytes.length,
  ) {}

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError("truncated varint");
      const byte = this.bytes[this.pos++] ?? 0;
      // Only the low 32 bits matter for the enum and lengths read here.
      if (shift < 32) result |= (byte & 0x7f) << shift;
      shift += 7;
      if ((byte & 0x80) === 0) return result;
      if (shift >= 70) throw new RangeError("varint too long");
    }
  }

  /** The bytes of a length-delimited field, as a reader of their own. */
  sub(): WireReader {
    const length = this.varint() >>> 0;
    const start = this.pos;
    if (start + length > this.end) throw new RangeError("truncated field");
    this.pos = start + length;
    return new WireReader(this.bytes.subarray(start, start + length));
  }

  string(): string {
    const length = this.varint() >>> 0;
    if (this.pos + length > this.end) throw new RangeError("truncated string");
    const text = utf8.decode(this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    return text;
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === FIXED64) this.pos += 8;
    else if (wireType === LENGTH_DELIMITED) {
      const length = this.varint() >>> 0;
      this.pos += length;
    } else if (wireType === FIXED32) this.pos += 4;
    else throw new RangeError(`unsupported wire type ${wireType}`);
  }

  /** Calls `read` with each field number and wire type until the message ends. */
  fields(read: (field: number, wireType: number) => boolean): void {
    while (!this.done()) {
      const tag = this.varint() >>> 0;
      const field = tag >>> 3;
      const wireType = tag & 7;
      if (!read(field, wireType)) this.skip(wireType);
    }
    if (this.pos > this.end) throw new RangeError("truncated field");
  }
}

function readFieldViolation(reader: WireReader): FieldViolation {
  const violation: FieldViolation = { field: "", message: "" };
  reader.fields((field, wireType) => {
    if (wireType !== LENGTH_DELIMITED) return false;
    if (field === 1) violation.field = reader.string();
    else if (field === 2) violation.message = reader.string();
    else return false;
    return true;
  });
  return violation;
}

/** Decodes the binary form of palisade.common.v1.ErrorDetail; undefined when the bytes are malformed. */
export function decodeErrorDetail(bytes: Uint8Array): ErrorDetail | undefined {
  const detail: ErrorDetail = { code: 0, message: "", fieldViolations: [], mfaSetupRequired: false };
  const reader = new WireReader(bytes);
  try {
    reader.fields((field, wireType) => {
      if (field === 1 && wireType === VARINT) detail.code = reader.varint() as ProductErrorCode;
      else if (field === 2 && wireType === LENGTH_DELIMITED) detail.message = reader.string();
      else if (field === 3 && wireType === LENGTH_DELIMITED)
        detail.fieldViolations.push(readFieldViolation(reader.sub()));
      else if (field === 4 && wireType === VARINT) detail.mfaSetupRequired = reader.varint() !== 0;
      else return false;
      return true;
    });
  } catch {
    return undefined;
  }
  return detail;
}

/** A detail of the full client's ConnectError: from the wire (type + bytes) or raised locally (desc + value). */
type ConnectDetail = WireDetail | { desc: { typeName: string }; value: unknown };

// Checked by shape so that the public pages, which never see a ConnectError, do not load the Connect runtime.
function connectDetailsOf(error: unknown): readonly ConnectDetail[] | undefined {
  if (!(error instanceof Error) || error.name !== "ConnectError" || !("details" in error)) return undefined;
  return Array.isArray(error.details) ? (error.details as ConnectDetail[]) : undefined;
}

function fromLocalValue(value: unknown): ErrorDetail {
  const v = (value ?? {}) as Partial<ErrorDetail>;
  return {
    code: v.code ?? 0,
    message: v.message ?? "",
    fieldViolations: (v.fieldViolations ?? []).map((f) => ({
      field: f.field ?? "",
      message: f.message ?? "",
    })),
    mfaSetupRequired: v.mfaSetupRequired ?? false,
  };
}

/**
 * The ErrorDetail an RPC failure carries (product error code, its message and the input fields at
 * fault), for errors of both clients: the ConnectError of the signed-in pages and the RpcError of the
 * public pages' JSON client. Undefined when the server attached none.
 */
export function errorDetailOf(error: unknown): ErrorDetail | undefined {
  const details = error instanceof RpcError ? error.details : connectDetailsOf(error);
  for (const detail of details ?? []) {
    if ("desc" in detail) {
      if (detail.desc.typeName === errorDetailType) return fromLocalValue(detail.value);
    } else if (detail.type === errorDetailType) {
      const decoded = decodeErrorDetail(detail.value);
      if (decoded) return decoded;
    }
  }
  return undefined;
}

/** The product error code of an RPC failure; 0 (unspecified) when there is none. */
export function productErrorCodeOf(error: unknown): ProductErrorCode {
  return errorDetailOf(error)?.code ?? (0 as ProductErrorCode);
}

/**
 * The field problems of an RPC failure sorted for a form: each violation of a field the form shows
 * goes beside it (an index such as "scopes[1]" counts for the list field); the others are returned as
 * text for an error dialog. Undefined when the failure names no fields.
 */
export function fieldErrorsOf(
  error: unknown,
  formFields: readonly string[],
): { fields: Record<string, string>; rest: string[] } | undefined {
  const violations = errorDetailOf(error)?.fieldViolations ?? [];
  if (violations.length === 0) return undefined;
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const { field, message } of violations) {
    const key = field.replace(/\[\d+\]$/, "");
    if (formFields.includes(key)) fields[key] = message;
    else rest.push(field ? `${field}: ${message}` : message);
  }
  return { fields, rest };
}
