import nodemailer from "nodemailer";
import type { Logger } from "./log";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** SMTP through nodemailer when LOADOUT_SMTP_URL is set; otherwise the mail (with its link) is logged. */
export function createMailer(opts: { smtpUrl?: string; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      send: async (mail) => {
        opts.log.info("mail not sent (no LOADOUT_SMTP_URL); contents logged instead", {
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    send: async (mail) => {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
