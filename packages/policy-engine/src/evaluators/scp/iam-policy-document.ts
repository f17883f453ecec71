export type ConditionValue = string | number | boolean;

/** Condition block: operator -> context key -> one value or a list of values. */
export type ConditionBlock = Record<string, Record<string, ConditionValue | ConditionValue[]>>;

export interface IamStatement {
  Sid?: string;
  Effect: "Allow" | "Deny";
  /** Resource control policies only, always "*". */
  Principal?: "*";
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: ConditionBlock;
}

export interface IamPolicyDocument {
  Version?: "2012-10-17" | "2008-10-17";
  Id?: string;
  Statement: IamStatement | IamStatement[];
}

export function toList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function statementsOf(document: IamPolicyDocument): IamStatement[] {
  return toList(document.Statement);
}

/** Policy variables are only substituted in documents of the 2012-10-17 language version. */
export function supportsPolicyVariables(document: IamPolicyDocument): boolean {
  return document.Version === "2012-10-17";
}
