export interface TryOutcome {
  httpStatus: number;
  allowed: boolean;
  body: Record<string, unknown>;
}

/** The request names something the sandbox does not have: answered as 400, never as a policy decision. */
export class TryInputError extends Error {}
