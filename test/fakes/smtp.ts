// A real SMTP peer (smtp-server) on loopback that keeps every message it receives.
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? (session.envelope.mailFrom as { address: string }).address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits until at least `n` mails arrived (or 10 s). */
    async waitFor(n: number) {
      const deadline = Date.now() + 10_000;
      while (mails.length < n && Date.now() < deadline) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 200)));
      if (mails.length < n) throw new Error(`expected ${n} mails, got ${mails.length}`);
    },
    /** The first URL in a mail's text, with quoted-printable soft breaks undone. */
    linkIn(mail: ReceivedMail): string {
      const text = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const m = /https?:\/\/\S+/.exec(text);
      if (!m) throw new Error("no link in mail");
      return m[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
