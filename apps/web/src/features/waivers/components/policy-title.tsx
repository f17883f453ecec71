import { CardTitle } from "@/components/ui/card";
import { useDefinitionBySlug } from "../api/waiver-request-queries";

/** The policy card's title: the policy's name from the catalogue, its slug beneath. */
export function PolicyTitle({ slug }: { slug: string }) {
  const definition = useDefinitionBySlug(slug);
  const name = definition.data?.displayName;
  return (
    <>
      <CardTitle className="break-words">{name || slug}</CardTitle>
      {name && <p className="break-all font-mono text-xs text-muted-foreground">{slug}</p>}
    </>
  );
}
