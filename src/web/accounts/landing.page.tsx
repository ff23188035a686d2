// Where e-mail links land: the magic sign-in link and the e-mail verification link.
import { useEffect } from "react";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { setToken } from "../app/auth-store";
import { ErrorMessage, Notice, Skeleton } from "../ui/components";
import { verifyEmail, verifyMagic } from "./accounts.services";

export function MagicLandingPage() {
  const { token } = useSearch({ from: "/magic" });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => verifyMagic(token ?? ""),
    onSuccess: async (r) => {
      setToken(r.token);
      await qc.invalidateQueries();
      await navigate({ to: "/mods" });
    },
  });
  useEffect(() => {
    if (token && m.isIdle) m.mutate();
  }, [token]);
  return (
    <div className="narrow stack">
      <h1>Signing you in</h1>
      {!token && <Notice kind="error">This link has no token. Ask for a new sign-in link.</Notice>}
      {m.isPending && <Skeleton lines={1} label="Checking the link" />}
      {m.error && (
        <>
          <ErrorMessage error={m.error} />
          <p>
            Links work once, for 15 minutes.{" "}
            <Link to="/sign-in" search={{ next: undefined }}>
              Ask for a new one
            </Link>
            .
          </p>
        </>
      )}
    </div>
  );
}

export function VerifyEmailPage() {
  const { token } = useSearch({ from: "/verify-email" });
  const m = useMutation({ mutationFn: () => verifyEmail(token ?? "") });
  useEffect(() => {
    if (token && m.isIdle) m.mutate();
  }, [token]);
  return (
    <div className="narrow stack">
      <h1>Verify your e-mail address</h1>
      {!token && <Notice kind="error">This link has no token.</Notice>}
      {m.isPending && <Skeleton lines={1} label="Verifying" />}
      {m.isSuccess && <Notice kind="ok">Your e-mail address is verified. Thank you.</Notice>}
      <ErrorMessage error={m.error} />
      <p>
        <Link to="/mods">Go to the catalog</Link>
      </p>
    </div>
  );
}
