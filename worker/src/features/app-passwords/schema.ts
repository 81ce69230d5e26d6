import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../validation/common.ts";

export const MAX_APP_PASSWORDS = 20;

export const AppPasswordInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .describe(
        'What the app password is for, to tell it apart in the list ("Phone", "Symfonium").',
      ),
  })
  .openapi("AppPasswordInput");

export const AppPasswordDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable().describe(
      "When an app last signed in with it (written at most every 5 minutes); null: never used.",
    ),
  })
  .openapi("AppPassword");

export const NewAppPasswordDto = AppPasswordDto.extend({
  password: z
    .string()
    .describe(
      "The secret, shown this once: it cannot be read again. Type it into the app as the password (with the account's username), or give it alone as the OpenSubsonic `apiKey`.",
    ),
  username: z.string().describe("The username to type into the app with the password."),
}).openapi("NewAppPassword");
