import { useQuery } from "@tanstack/react-query";
import { passwordPolicyQuery, passwordPolicyText } from "@/lib/password-policy";

/** The server's password rules as one sentence, for the forms that set a password. */
export function PasswordRules({ className }: { className?: string }) {
  const { data } = useQuery(passwordPolicyQuery);
  if (!data) return null;
  return <span className={className}>{passwordPolicyText(data)}</span>;
}
