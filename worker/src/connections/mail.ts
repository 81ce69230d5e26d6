import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends through an HTTP mail API in Resend's shape (`POST {MAIL_API_URL}` with a bearer key).
 * Without MAIL_API_KEY the message, reset links included, goes to the log in development only;
 * elsewhere it is not sent and an error says so (readiness reports the missing key too).
 */
export async function sendMail(env: Env, log: Logger, message: MailMessage): Promise<void> {
  if (!env.MAIL_API_KEY) {
    // Reset and verification links are secrets: only a development deployment writes them out.
    if (env.DEPLOYMENT === "development") {
      log.info("mail not configured; message written to the log (development mode)", {
        mail: message,
      });
    } else {
      log.error("mail not configured: a message was not sent (MAIL_API_KEY)", {
        subject: message.subject,
      });
    }
    return;
  }
  const response = await fetch(env.MAIL_API_URL, {
    method: "POST",
    headers: { authorization: `Bearer ${env.MAIL_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ from: env.MAIL_FROM, ...message }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    // The caller runs this after the response: nothing to tell the client, so say it loudly here.
    log.error("sending mail failed", { status: response.status, subject: message.subject });
  }
}
