import { Link } from "@tanstack/react-router";

/** A live server's name, linking to its page (browser, statistics and community tables). */
export function ServerLink({ server }: { server: { id: string; name: string } }) {
  return (
    <Link to="/live/$id" params={{ id: server.id }} search={{}}>
      {server.name}
    </Link>
  );
}
