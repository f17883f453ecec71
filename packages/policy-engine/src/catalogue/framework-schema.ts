import { z } from "zod";

export const frameworkSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9.]+)*$/, "must be lower-case kebab-case (dots allowed in versions)"),
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().min(1),
  clauses: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        title: z.string().min(1),
      }),
    )
    .min(1),
});
export type Framework = z.infer<typeof frameworkSchema>;

/** resource type -> alias -> JSON path inside the ARM resource (`[*]` marks array members). */
export const aliasFileSchema = z.record(
  z
    .string()
    .regex(
      /^[A-Za-z]+\.[A-Za-z.]+\/[A-Za-z/]+$/,
      "must be a resource type like Microsoft.Storage/storageAccounts",
    ),
  z.record(
    z
      .string()
      .regex(
        /^[A-Za-z]+\.[A-Za-z.]+\/[A-Za-z/]+\/[A-Za-z0-9]+(\[\*\])?(\.[A-Za-z0-9]+(\[\*\])?)*$/,
        "must be an alias like Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id",
      ),
    z
      .string()
      .regex(
        /^[A-Za-z][A-Za-z0-9]*(\[\*\])?(\.[A-Za-z][A-Za-z0-9]*(\[\*\])?)*$/,
        "must be a JSON path like properties.a[*].b",
      ),
  ),
);
export type AliasFile = z.infer<typeof aliasFileSchema>;
