// The auth operations of either account kind. Each route exists once per kind with the same
// body, so every helper picks the path by kind in plain code: the typed client checks both sides.
import { api, type components, type Kind, unwrap } from "./api.ts";
import type { Account } from "./session.ts";

type Schemas = components["schemas"];
export type Session = Schemas["Session"];

export async function register(kind: Kind, body: Schemas["RegisterRequest"]): Promise<Account> {
  return kind === "user"
    ? { kind, user: unwrap(await api(kind).POST("/api/v1/users/auth/register", { body })) }
    : { kind, artist: unwrap(await api(kind).POST("/api/v1/artists/auth/register", { body })) };
}

/** The account, or null when the password was right and the second factor is wanted. */
export async function login(kind: Kind, body: Schemas["LoginRequest"]): Promise<Account | null> {
  if (kind === "user") {
    const answer = unwrap(await api(kind).POST("/api/v1/users/auth/login", { body }));
    return answer.requiresTwoFactor ? null : { kind, user: answer.account };
  }
  const answer = unwrap(await api(kind).POST("/api/v1/artists/auth/login", { body }));
  return answer.requiresTwoFactor ? null : { kind, artist: answer.account };
}

/** The second factor of an OAuth sign-in (the API holds the pending sign-in in a cookie). */
export async function completeSignIn(kind: Kind, code: string): Promise<Account> {
  const body = { code };
  return kind === "user"
    ? { kind, user: unwrap(await api(kind).POST("/api/v1/users/auth/2fa/complete", { body })) }
    : { kind, artist: unwrap(await api(kind).POST("/api/v1/artists/auth/2fa/complete", { body })) };
}

export const forgotPassword = async (kind: Kind, body: Schemas["PasswordForgotRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/password/forgot", { body })
      : await api(kind).POST("/api/v1/artists/auth/password/forgot", { body }),
  );

export const resetPassword = async (kind: Kind, body: Schemas["PasswordResetRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/password/reset", { body })
      : await api(kind).POST("/api/v1/artists/auth/password/reset", { body }),
  );

export const changePassword = async (kind: Kind, body: Schemas["PasswordChangeRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/password/change", { body })
      : await api(kind).POST("/api/v1/artists/auth/password/change", { body }),
  );

export const verifyEmail = async (kind: Kind, body: Schemas["EmailVerifyRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/email/verify", { body })
      : await api(kind).POST("/api/v1/artists/auth/email/verify", { body }),
  );

export const resendVerification = async (kind: Kind) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/email/verify/resend")
      : await api(kind).POST("/api/v1/artists/auth/email/verify/resend"),
  );

export const changeEmail = async (kind: Kind, body: Schemas["EmailChangeRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/email/change", { body })
      : await api(kind).POST("/api/v1/artists/auth/email/change", { body }),
  );

export const listSessions = async (kind: Kind, signal: AbortSignal): Promise<Session[]> =>
  unwrap(
    kind === "user"
      ? await api(kind).GET("/api/v1/users/auth/sessions", { signal })
      : await api(kind).GET("/api/v1/artists/auth/sessions", { signal }),
  );

export async function endSession(kind: Kind, id: string): Promise<void> {
  const params = { path: { id } };
  unwrap(
    kind === "user"
      ? await api(kind).DELETE("/api/v1/users/auth/sessions/{id}", { params })
      : await api(kind).DELETE("/api/v1/artists/auth/sessions/{id}", { params }),
  );
}

export const endOtherSessions = async (kind: Kind) =>
  unwrap(
    kind === "user"
      ? await api(kind).DELETE("/api/v1/users/auth/sessions")
      : await api(kind).DELETE("/api/v1/artists/auth/sessions"),
  );

export const startTwoFactor = async (kind: Kind, body: Schemas["ReauthRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/2fa/enable", { body })
      : await api(kind).POST("/api/v1/artists/auth/2fa/enable", { body }),
  );

export const confirmTwoFactor = async (kind: Kind, body: Schemas["TwoFactorCodeRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/2fa/verify", { body })
      : await api(kind).POST("/api/v1/artists/auth/2fa/verify", { body }),
  );

export const turnOffTwoFactor = async (kind: Kind, body: Schemas["ReauthWithCodeRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/2fa/disable", { body })
      : await api(kind).POST("/api/v1/artists/auth/2fa/disable", { body }),
  );

export const newRecoveryCodes = async (kind: Kind, body: Schemas["ReauthWithCodeRequest"]) =>
  unwrap(
    kind === "user"
      ? await api(kind).POST("/api/v1/users/auth/2fa/recovery-codes", { body })
      : await api(kind).POST("/api/v1/artists/auth/2fa/recovery-codes", { body }),
  );

/** The account's data as one JSON file (GDPR export), read with the session like any call. */
export const exportData = async (kind: Kind): Promise<Blob> =>
  unwrap(
    kind === "user"
      ? await api(kind).GET("/api/v1/users/me/export", { parseAs: "blob" })
      : await api(kind).GET("/api/v1/artists/me/export", { parseAs: "blob" }),
  );
