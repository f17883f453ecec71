import Markdown, { type Components } from "react-markdown";
import { safeUrl } from "@/lib/safe-url";

const markdownComponents: Components = {
  a: ({ node: _node, ...props }) => (
    <a
      {...props}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-primary underline underline-offset-2 hover:text-primary/80"
    />
  ),
};

/**
 * The text block's rules for Markdown written by people (feedback message templates, notices):
 * raw HTML is dropped, images are not loaded, and links keep only http(s), mailto or relative
 * addresses (any other link is blanked). Such text is stored as given and shown only through here.
 */
export function MarkdownText({ children }: { children: string }) {
  return (
    <Markdown skipHtml disallowedElements={["img"]} urlTransform={safeUrl} components={markdownComponents}>
      {children}
    </Markdown>
  );
}
