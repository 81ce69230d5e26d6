import type { Env } from "../../../env.ts";

export const OAUTH_PROVIDERS = ["google", "facebook"] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

export interface OAuthProfile {
  subject: string;
  email: string | null;
  /** Only a verified email may link the sign-in to an existing account. */
  emailVerified: boolean;
  name: string | null;
}

export interface OAuthProvider {
  name: OAuthProviderName;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
  scope: string;
  /** Reads the profile with the access token. */
  profile(accessToken: string): Promise<OAuthProfile>;
}

const getJson = async (url: string, accessToken: string) => {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`profile request answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
};

const str = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : null);

/** The configured provider of that name, or null (unknown, or no client credentials). */
export function oauthProvider(env: Env, name: string): OAuthProvider | null {
  if (name === "google" && env.OAUTH_GOOGLE_CLIENT_ID && env.OAUTH_GOOGLE_CLIENT_SECRET) {
    return {
      name,
      clientId: env.OAUTH_GOOGLE_CLIENT_ID,
      clientSecret: env.OAUTH_GOOGLE_CLIENT_SECRET,
      authorizeUrl: env.OAUTH_GOOGLE_AUTHORIZE_URL,
      tokenUrl: env.OAUTH_GOOGLE_TOKEN_URL,
      profileUrl: env.OAUTH_GOOGLE_PROFILE_URL,
      scope: "openid email profile",
      // OpenID Connect userinfo.
      async profile(accessToken) {
        const body = await getJson(env.OAUTH_GOOGLE_PROFILE_URL, accessToken);
        const subject = str(body.sub);
        if (!subject) throw new Error("the profile has no subject");
        return {
          subject,
          email: str(body.email)?.toLowerCase() ?? null,
          emailVerified: body.email_verified === true,
          name: str(body.name),
        };
      },
    };
  }
  if (name === "facebook" && env.OAUTH_FACEBOOK_CLIENT_ID && env.OAUTH_FACEBOOK_CLIENT_SECRET) {
    return {
      name,
      clientId: env.OAUTH_FACEBOOK_CLIENT_ID,
      clientSecret: env.OAUTH_FACEBOOK_CLIENT_SECRET,
      authorizeUrl: env.OAUTH_FACEBOOK_AUTHORIZE_URL,
      tokenUrl: env.OAUTH_FACEBOOK_TOKEN_URL,
      profileUrl: env.OAUTH_FACEBOOK_PROFILE_URL,
      scope: "email public_profile",
      // Graph API.
      async profile(accessToken) {
        const url = new URL(env.OAUTH_FACEBOOK_PROFILE_URL);
        url.searchParams.set("fields", "id,name,email");
        const body = await getJson(url.toString(), accessToken);
        const subject = str(body.id);
        if (!subject) throw new Error("the profile has no id");
        const email = str(body.email)?.toLowerCase() ?? null;
        // Facebook does not say whether the address was confirmed: never trusted for linking.
        return { subject, email, emailVerified: false, name: str(body.name) };
      },
    };
  }
  return null;
}
