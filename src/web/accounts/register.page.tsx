import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setToken } from "../app/auth-store";
import { ErrorMessage, Field, Notice, Skeleton } from "../ui/components";
import { authOptions, login, register } from "./accounts.services";

export function RegisterPage() {
  const options = useQuery({ queryKey: ["auth-options"], queryFn: authOptions, staleTime: Infinity });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const create = useMutation({
    mutationFn: async () => {
      const made = await register(email, password, name);
      return { made, session: await login(email, password) };
    },
    onSuccess: async ({ made, session }) => {
      setToken(session.token);
      await qc.invalidateQueries();
      if (made.role !== "admin" && made.is_approved) await navigate({ to: "/mods" });
    },
  });
  if (options.isLoading) return <Skeleton />;
  if (options.data?.registration === "closed")
    return (
      <div className="narrow card">
        <h1>Registration is closed</h1>
        <p>This Loadout does not take new accounts. Ask an admin of your community to create one for you.</p>
        <Link to="/sign-in" search={{ next: undefined }}>
          Sign in
        </Link>
      </div>
    );
  if (create.isSuccess && create.data.made.role === "admin")
    return (
      <div className="narrow stack">
        <h1>You are this Loadout's admin</h1>
        <Notice kind="ok">
          Yours is the first account here, so it administers this Loadout: you approve new accounts, see the background jobs and start the
          workshop crawl and the live scan.
        </Notice>
        <p>
          <Link to="/admin">Open the admin page</Link> · <Link to="/mods">Browse the catalog</Link>
        </p>
      </div>
    );
  if (create.isSuccess && !create.data.made.is_approved)
    return (
      <div className="narrow stack">
        <h1>Waiting for approval</h1>
        <Notice kind="warn">
          Your account is created and waiting for an admin to approve it. You are signed in: you can browse and read now; changes work once you are approved.
        </Notice>
        <p>
          <Link to="/mods">Browse the catalog</Link>
        </p>
      </div>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <div className="narrow stack">
      <h1>Create an account</h1>
      {options.data?.first_account_admin ? (
        <Notice>This Loadout has no admin yet: the account you create now becomes its admin.</Notice>
      ) : (
        options.data?.registration === "approval" && <Notice>New accounts here are approved by an admin before they can make changes.</Notice>
      )}
      <form className="card stack" onSubmit={submit} aria-label="Create an account">
        <Field label="Display name" autoComplete="nickname" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          hint="8 to 128 characters"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorMessage error={create.error} />
        <button className="btn" type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create account"}
        </button>
      </form>
      <p>
        Already have an account?{" "}
        <Link to="/sign-in" search={{ next: undefined }}>
          Sign in
        </Link>
      </p>
    </div>
  );
}
