import { z } from "@hono/zod-openapi";
import type { AccountKind } from "../../security/account-kinds.ts";
import { isCommonPassword, isContextPassword } from "./password/common-passwords.ts";

export const USERNAME = /^[A-Za-z0-9_.-]{3,30}$/;

export const Username = z
  .string()
  .trim()
  .regex(USERNAME, "3–30 characters: letters, digits, '_', '.', '-'")
  .openapi({ example: "alice" });

/**
 * The name shown to people (spaces and any script): trimmed, Unicode-normalised (NFC), inner
 * whitespace collapsed, 1–50 characters, no control or format characters. The username stays the
 * handle in URLs.
 */
export const DisplayName = z
  .string()
  .transform((name) => name.normalize("NFC").trim().replace(/\s+/gu, " "))
  .pipe(
    z
      .string()
      .min(1, "must not be empty (send null to remove it)")
      .max(50, "at most 50 characters")
      .regex(/^[^\p{Cc}\p{Cf}\p{Co}\p{Cn}]*$/u, "must not hold control or invisible characters"),
  )
  .openapi({ example: "Luna Harbor" });

/** The display name as answered: null when none is set (show the username). */
export const DisplayNameOut = z.string().nullable().openapi({
  description: "The name shown to people; null: none set, show `username`.",
  example: "Luna Harbor",
});

export const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email("must be an email address"))
  .transform((email) => email.toLowerCase())
  .openapi({ example: "alice@example.com" });

/**
 * NIST SP 800-63B: length is what matters (8–128 characters, any characters, no composition
 * rules) and passwords from lists of common ones are refused.
 */
export const NewPassword = z
  .string()
  .min(8, "at least 8 characters")
  .max(128, "at most 128 characters")
  .refine((password) => !isCommonPassword(password), "too common; choose another")
  .refine(
    (password) => !isContextPassword(password),
    "made of this service's own name and words; choose another",
  )
  .openapi({ example: "correct horse battery staple" });

const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "6 digits")
  .openapi({ example: "123456" });

export const RegisterBody = z
  .object({ username: Username, email: Email, password: NewPassword })
  .openapi("RegisterRequest");

export const LoginBody = z
  .object({
    email: Email,
    // Checked against the stored hash only: no strength rules on the way in.
    password: z.string().min(1).max(128),
    code: z.string().trim().min(6).max(32).optional().openapi({
      description:
        "Second factor, sent again with the same email and password after an answer with `requiresTwoFactor: true`: a current 6-digit TOTP code or one unused recovery code.",
      example: "123456",
    }),
  })
  .openapi("LoginRequest");

export const CodeBody = z.object({ code: TotpCode }).openapi("TwoFactorCodeRequest");
const CurrentPassword = z.string().min(1).max(128).optional().openapi({
  description:
    "The account's current password: required when the account has one (re-authentication).",
});
export const ReauthBody = z.object({ password: CurrentPassword }).openapi("ReauthRequest");
export const ReauthWithOptionalCodeBody = z
  .object({
    password: CurrentPassword,
    code: TotpCode.optional().openapi({
      description:
        "A current TOTP code: how an account without a password that has 2FA proves itself.",
    }),
  })
  .openapi("ReauthOrCodeRequest");
export const ReauthWithCodeBody = z
  .object({ code: TotpCode, password: CurrentPassword })
  .openapi("ReauthWithCodeRequest");
export const SecondFactorBody = z
  .object({
    code: z.string().trim().min(6).max(32).openapi({
      description: "A current 6-digit TOTP code or one unused recovery code.",
      example: "123456",
    }),
  })
  .openapi("SecondFactorRequest");

export const ForgotBody = z.object({ email: Email }).openapi("PasswordForgotRequest");
export const ChangePasswordBody = z
  .object({
    // Checked against the stored hash only: no strength rules on the way in.
    currentPassword: z.string().min(1).max(128),
    newPassword: NewPassword,
  })
  .openapi("PasswordChangeRequest");
export const ResetBody = z
  .object({ token: z.string().trim().min(16).max(256), password: NewPassword })
  .openapi("PasswordResetRequest");

export const UserDto = z
  .object({
    id: z.uuid(),
    username: z.string(),
    displayName: DisplayNameOut,
    email: z.string(),
    emailVerified: z
      .boolean()
      .describe("The address was proven: a mailed link came back, or a provider vouched for it."),
    twoFactorEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .openapi("User");

export const ArtistAccountDto = z
  .object({
    id: z.uuid(),
    username: z.string(),
    displayName: DisplayNameOut,
    bio: z.string(),
    avatar: z.string().nullable(),
    backgroundImage: z.string().nullable(),
    emailVerified: z
      .boolean()
      .describe("The address was proven: a mailed link came back, or a provider vouched for it."),
    twoFactorEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .openapi("ArtistAccount", {
    description: "The signed-in artist. Like every artist endpoint, it never returns the email.",
  });

export const accountDto = (kind: AccountKind) =>
  kind.name === "user" ? UserDto : ArtistAccountDto;

export const MessageDto = z.object({ message: z.string() }).openapi("Message");

export const TwoFactorRequiredDto = z
  .object({ requiresTwoFactor: z.literal(true) })
  .openapi("TwoFactorRequired", {
    description:
      "The password was right and the account has 2FA: no cookies were set. Send the sign-in again with `code`.",
  });

export const TwoFactorSetupDto = z
  .object({
    qrCode: z.string().openapi({ description: "PNG image of the otpauth:// URI, base64." }),
    otpauthUri: z.string().openapi({
      example:
        "otpauth://totp/Edge%20Music:alice@example.com?issuer=Edge%20Music&algorithm=SHA1&secret=JBSWY3DPEHPK3PXP&period=30&digits=6",
    }),
    secret: z.string().openapi({ description: "The key in base32, for manual entry." }),
  })
  .openapi("TwoFactorSetup");

export const RecoveryCodesDto = z
  .object({
    twoFactorEnabled: z.literal(true),
    recoveryCodes: z.array(z.string()).openapi({
      description: "10 single-use codes, shown once. Each replaces a TOTP code once.",
    }),
  })
  .openapi("TwoFactorEnabled");

export const RefreshDto = z.object({ accessTokenExpiresAt: z.iso.datetime() }).openapi("Refreshed");

export const SessionDto = z
  .object({
    id: z.uuid(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime(),
    device: z.string().describe('Coarse, from the user agent: "Firefox on Linux, desktop".'),
    current: z.boolean().describe("The session of this request."),
  })
  .openapi("Session");
