/** An error detail as it arrives: the message's type name and its binary encoding. */
export interface WireDetail {
  type: string;
  value: Uint8Array;
}

/** An error answered by a Connect endpoint, as seen by the small JSON client of the public pages. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    /** Connect error code as sent on the wire, e.g. "not_found". */
    readonly code: string,
    message: string,
    /** The error's details (read them with `errorDetailOf`). */
    readonly details: readonly WireDetail[] = [],
  ) {
    super(message);
  }
}
