import * as z from "zod/mini";

export const chatDecideSearchSchema = z.object({
  token: z.catch(z.string().check(z.maxLength(1000)), ""),
});
