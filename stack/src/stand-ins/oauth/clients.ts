// No imports on purpose: tests running in workerd may import this module by path for the
// constants, without pulling in the Node-only server.

export type OAuthProvider = "google" | "facebook";

export const OAUTH_PROVIDERS: readonly OAuthProvider[] = ["google", "facebook"];

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

/**
 * The client every provider stand-in accepts without registration: client_id
 * `test-<provider>-client`, client_secret `test-<provider>-secret`.
 */
export const OAUTH_TEST_CLIENTS: Readonly<Record<OAuthProvider, OAuthClient>> = {
  google: { clientId: "test-google-client", clientSecret: "test-google-secret" },
  facebook: { clientId: "test-facebook-client", clientSecret: "test-facebook-secret" },
};

/**
 * The Worker's OAuth variables (see worker/src/env.ts) pointing at the stand-ins served at `url`:
 * used by the dev stack's .dev.vars and by the Worker tests.
 */
export function standInOAuthVars(url: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of OAUTH_PROVIDERS) {
    const prefix = `OAUTH_${name.toUpperCase()}`;
    vars[`${prefix}_CLIENT_ID`] = OAUTH_TEST_CLIENTS[name].clientId;
    vars[`${prefix}_CLIENT_SECRET`] = OAUTH_TEST_CLIENTS[name].clientSecret;
    vars[`${prefix}_AUTHORIZE_URL`] = `${url}/oauth/${name}/authorize`;
    vars[`${prefix}_TOKEN_URL`] = `${url}/oauth/${name}/token`;
  }
  vars.OAUTH_GOOGLE_PROFILE_URL = `${url}/oauth/google/userinfo`;
  vars.OAUTH_FACEBOOK_PROFILE_URL = `${url}/oauth/facebook/me`;
  return vars;
}
