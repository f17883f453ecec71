import type { StateStore } from "../state/store";
import { tryAws } from "./aws-try";
import { loadAliasTable } from "./azure-aliases";
import { tryAzure } from "./azure-try";
import { TryInputError, type TryOutcome } from "./try-types";

type ContextInput = Record<string, string | number | boolean | string[]>;

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** `POST /sandbox/try`: perform one cloud action as a principal, with the guardrails in force. */
export async function tryAction(store: StateStore, input: Record<string, unknown>): Promise<TryOutcome> {
  const provider = input.provider;
  const principal = text(input.principal);
  const action = text(input.action);
  const resource = text(input.resource);
  const context = (input.context && typeof input.context === "object" ? input.context : {}) as ContextInput;
  try {
    if (!principal || !action || !resource)
      throw new TryInputError("principal, action and resource are required.");
    if (provider === "aws") {
      return tryAws(store, {
        principal,
        action,
        resource,
        account: text(input.account),
        region: text(input.region),
        context,
        userAgent: text(input.userAgent),
      });
    }
    if (provider === "azure") {
      return tryAzure(
        store,
        { principal, action, resource, subscription: text(input.subscription), context },
        await loadAliasTable(),
      );
    }
    throw new TryInputError("provider must be aws or azure.");
  } catch (err) {
    if (err instanceof TryInputError) {
      return {
        httpStatus: 400,
        allowed: false,
        body: { error: { code: "InvalidRequest", message: err.message } },
      };
    }
    throw err;
  }
}
