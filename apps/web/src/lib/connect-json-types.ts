import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (
  intersection: infer I,
) => void
  ? I
  : never;

type TextMessages = "google.protobuf.Timestamp" | "google.protobuf.Duration" | "google.protobuf.FieldMask";
type FreeJsonMessages = "google.protobuf.Value" | "google.protobuf.Struct" | "google.protobuf.ListValue";

/** A field's value in the JSON encoding. Enums are numbers in the generated types and names in JSON. */
type FieldJson<T> = T extends bigint | Uint8Array
  ? string
  : T extends readonly (infer Item)[]
    ? FieldJson<Item>[]
    : T extends { $typeName: TextMessages }
      ? string
      : T extends { $typeName: FreeJsonMessages }
        ? JsonValue
        : T extends { $typeName: string }
          ? MessageJson<T>
          : T extends number
            ? number | string
            : T extends object
              ? { [key: string]: FieldJson<T[keyof T]> }
              : T;

type OneofKeys<M> = {
  [K in keyof M]-?: M[K] extends { case: string | undefined } ? K : never;
}[keyof M];

type OneofJson<O> = O extends { case: infer Case extends string; value: infer Value }
  ? { [K in Case]?: FieldJson<Value> }
  : never;

/**
 * The proto3 JSON form of a generated message type: every field optional, 64-bit integers and bytes
 * as strings, enums by name, a oneof's chosen field under its own name. Lets the public pages' JSON
 * client be checked against the contract with type-only imports.
 */
export type MessageJson<M> = {
  [K in Exclude<keyof M, "$typeName" | "$unknown" | OneofKeys<M>>]?: FieldJson<M[K]>;
} & UnionToIntersection<OneofJson<M[OneofKeys<M>]>>;

/** A generated service's type, as `typeof SomeService` gives it. */
export interface ServiceType {
  method: Record<string, { input: DescMessage; output: DescMessage }>;
}

export type MethodName<S extends ServiceType> = keyof S["method"] & string;

export type RequestJson<S extends ServiceType, K extends MethodName<S>> = MessageJson<
  MessageShape<S["method"][K]["input"]>
>;

export type ResponseJson<S extends ServiceType, K extends MethodName<S>> = MessageJson<
  MessageShape<S["method"][K]["output"]>
>;

type PackageOf<TypeName extends string> = TypeName extends `${infer Head}.${infer Rest}`
  ? Rest extends `${string}.${string}`
    ? `${Head}.${PackageOf<Rest>}`
    : Head
  : never;

/** The full name a service's requests live under, e.g. "palisade.policy.v1.PolicyService". */
export type ServiceTypeName<S extends ServiceType> =
  `${PackageOf<MessageShape<S["method"][MethodName<S>]["input"]>["$typeName"]>}.${string}`;
