import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { signUpOptionsQuery } from "../api/sign-up-options";

/** "Create an account", shown only when the server allows open sign-up. */
export function SignUpLink() {
  const { data } = useQuery(signUpOptionsQuery());
  if (!data?.signUpAllowed) return null;
  return (
    <p className="text-center text-sm text-muted-foreground">
      New to Palisade?{" "}
      <Link to="/sign-up" className="font-medium text-primary underline-offset-2 hover:underline">
        Create an account
      </Link>
    </p>
  );
}
