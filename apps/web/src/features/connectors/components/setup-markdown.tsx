import Markdown, { type Components } from "react-markdown";
import { safeUrl } from "@/lib/safe-url";

const components: Components = {
  a: ({ node: _node, href, ...props }) => (
    <a
      {...props}
      href={href ? safeUrl(href) : undefined}
      target="_blank"
      rel="noopener noreferrer"
      className="text-primary underline"
    />
  ),
  h3: ({ node: _node, ...props }) => <h3 {...props} className="text-base font-semibold" />,
  ol: ({ node: _node, ...props }) => <ol {...props} className="ml-5 list-decimal space-y-2" />,
  ul: ({ node: _node, ...props }) => <ul {...props} className="ml-5 list-disc space-y-1" />,
  pre: ({ node: _node, ...props }) => (
    <pre {...props} className="my-2 max-h-64 overflow-auto rounded-md bg-muted p-3 font-mono text-xs" />
  ),
  code: ({ node: _node, ...props }) => <code {...props} className="font-mono text-xs" />,
};

/** Setup steps the server wrote for a connector (trust policy, permissions, role assignments). */
export function SetupMarkdown({ markdown }: { markdown: string }) {
  return (
    <div className="space-y-3 text-sm" data-testid="setup-instructions">
      <Markdown components={components}>{markdown}</Markdown>
    </div>
  );
}
