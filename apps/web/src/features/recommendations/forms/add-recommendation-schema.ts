import * as z from "zod/mini";

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const addRecommendationSchema = z.object({
  title: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Title is required"),
      z.maxLength(120, "Title must not exceed 120 characters"),
    ),
  description: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Description is required"),
      z.maxLength(5000, "Description must not exceed 5000 characters"),
    ),
  provider: z.enum(["AWS", "Azure"], "Choose a cloud"),
  policySlugs: z.pipe(
    z.string().check(z.trim()),
    z.pipe(
      z.transform((value: string) => value.split(/[\s,]+/).filter(Boolean)),
      z
        .array(
          z.string().check(z.regex(slugPattern, "Policy slugs use lower-case letters, digits and dashes")),
        )
        .check(z.minLength(1, "Name at least one policy definition")),
    ),
  ),
});

export type AddRecommendationInput = z.input<typeof addRecommendationSchema>;
export type AddRecommendationValues = z.output<typeof addRecommendationSchema>;
