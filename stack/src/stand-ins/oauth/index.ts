import type { Routes } from "../http.ts";
import { authorize } from "./authorize.ts";
import type { OAuthClient, OAuthProvider } from "./clients.ts";
import { facebookMe, googleUserinfo } from "./profile.ts";
import { createProviderState } from "./provider.ts";
import { token } from "./token.ts";

export {
  OAUTH_PROVIDERS,
  OAUTH_TEST_CLIENTS,
  type OAuthClient,
  type OAuthProvider,
} from "./clients.ts";

/** The authorization server and the profile endpoint of each provider, under /oauth/<provider>/. */
export function oauthRoutes(options: {
  clients: Partial<Record<OAuthProvider, OAuthClient[]>>;
  now: () => number;
}): Routes {
  const google = createProviderState("google", options.clients.google ?? [], options.now);
  const facebook = createProviderState("facebook", options.clients.facebook ?? [], options.now);
  return {
    "GET /oauth/google/authorize": authorize(google),
    "POST /oauth/google/token": token(google),
    "GET /oauth/google/userinfo": googleUserinfo(google),
    "GET /oauth/facebook/authorize": authorize(facebook),
    "POST /oauth/facebook/token": token(facebook),
    "GET /oauth/facebook/me": facebookMe(facebook),
  };
}
