// Writes schema/palisade.schema.json from the files' schemas (src/files/schemas.ts).
import { writeFileSync } from "node:fs";
import { filesJsonSchema } from "../src/files/schemas";

writeFileSync(
  new URL("../schema/palisade.schema.json", import.meta.url),
  `${JSON.stringify(filesJsonSchema(), null, 2)}\n`,
);
