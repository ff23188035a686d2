import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setToken } from "../app/auth-store";
import { ErrorMessage, Field, Notice } from "../ui/components";
import { authOptions, login, requestMagicLink } from "./accounts.services";

export function SignInPage() {
  const { next } = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const options = useQuery({ queryKey: ["auth-options"], queryFn: authOptions, staleTime: Infinity });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [magicEmail, setMagicEmail] = useState("");
  const signIn = useMutation({
    mutationFn: () => login(email, password),
    onSuccess: async (r) => {
      setToken(r.token);
      await qc.invalidateQueries();
      await navigate({ to: next ?? "/mods" });
    },
  });
  const magic = useMutation({ mutationFn: () => requestMagicLink(magicEmail) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate();
  };
  return (
    <div className="narrow stack">
      <h1>Sign in</h1>
      {next && <Notice>Sign in to continue where you were.</Notice>}
      <form className="card stack" onSubmit={submit} aria-label="Sign in with your password">
        <Field label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorMessage error={signIn.error} />
        <button className="btn" type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <form
        className="card stack"
        aria-label="Sign in with a link by e-mail"
        onSubmit={(e) => {
          e.preventDefault();
          magic.mutate();
        }}
      >
        <h2 style={{ marginTop: 0 }}>No password? Get a sign-in link</h2>
        <Field label="E-mail for the link" type="email" autoComplete="email" required value={magicEmail} onChange={(e) => setMagicEmail(e.target.value)} />
        <ErrorMessage error={magic.error} />
        {magic.isSuccess && <Notice kind="ok">If the address can sign in here, a link is on its way. It works once, for 15 minutes.</Notice>}
        <button className="btn secondary" type="submit" disabled={magic.isPending}>
          Send me a link
        </button>
      </form>
      {options.data?.chat_login && (
        <p>
          <a className="btn secondary" href="/api/v1/auth/chat">
            Sign in with Discord
          </a>
        </p>
      )}
      {options.data && options.data.registration !== "closed" && (
        <p>
          New here? <Link to="/register">Create an account</Link>
        </p>
      )}
    </div>
  );
}
