import { randomUUID } from "node:crypto";
import { bearerToken, json, jsonObject, type Routes } from "./http.ts";

export interface StoredMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  receivedAt: string;
}

/** A dev session keeps at most this many messages; the oldest go first. */
const KEPT_MESSAGES = 1000;
/** Resend's limit of recipients per email. */
const MAX_RECIPIENTS = 50;

/**
 * The Resend HTTP API (`POST /emails`, served at /mail/emails) with an inbox in memory, and
 * `GET /mail/messages?to=<address>` for tests to read what was sent. Errors use Resend's shape,
 * `{statusCode, name, message}`.
 */
export function mailRoutes(): Routes {
  const messages: StoredMessage[] = [];
  return {
    "POST /mail/emails": (request) => {
      if (!bearerToken(request))
        return resendError(401, "missing_api_key", "Missing API key in the authorization header");
      const message = parseEmail(jsonObject(request));
      if (typeof message === "string") return resendError(422, "validation_error", message);
      messages.push(message);
      if (messages.length > KEPT_MESSAGES) messages.shift();
      return json(200, { id: message.id });
    },
    "GET /mail/messages": ({ url }) => {
      const to = url.searchParams.get("to");
      const wanted = to === null ? undefined : address(to);
      return json(
        200,
        wanted === undefined
          ? messages
          : messages.filter((message) => message.to.some((r) => address(r) === wanted)),
      );
    },
  };
}

/** The message, or what is wrong with the request body. */
function parseEmail(body: Record<string, unknown> | undefined): StoredMessage | string {
  if (!body) return "The body must be a JSON object";
  const { from, to, subject, text, html } = body;
  if (!isAddress(from)) return "The `from` field must be an email address";
  const recipients = typeof to === "string" ? [to] : to;
  if (!Array.isArray(recipients) || recipients.length === 0 || !recipients.every(isAddress))
    return "The `to` field must be an email address or a non-empty array of them";
  if (recipients.length > MAX_RECIPIENTS)
    return `The \`to\` field accepts at most ${MAX_RECIPIENTS} addresses`;
  if (typeof subject !== "string" || subject.trim() === "")
    return "The `subject` field must be a non-empty string";
  if (text !== undefined && typeof text !== "string") return "The `text` field must be a string";
  if (html !== undefined && typeof html !== "string") return "The `html` field must be a string";
  if (text === undefined && html === undefined) return "Either `text` or `html` is required";
  return {
    id: randomUUID(),
    from,
    to: recipients,
    subject,
    text: text ?? null,
    html: html ?? null,
    receivedAt: new Date().toISOString(),
  };
}

function isAddress(value: unknown): value is string {
  return typeof value === "string" && /^[^@\s<>]+@[^@\s<>]+$/.test(address(value));
}

/** `"Name <a@b.c>"` and `"A@B.C"` both name the mailbox `a@b.c`. */
function address(value: string): string {
  const angle = /<([^>]*)>\s*$/.exec(value);
  return (angle?.[1] ?? value).trim().toLowerCase();
}

function resendError(statusCode: number, name: string, message: string) {
  return json(statusCode, { statusCode, name, message });
}
