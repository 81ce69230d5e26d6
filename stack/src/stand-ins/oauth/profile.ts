import { bearerToken, type Handler, json, type Reply } from "../http.ts";
import { type AccessToken, type ProviderState, scopes } from "./provider.ts";

/**
 * GET /oauth/google/userinfo: the OpenID Connect userinfo response. As at Google, email and
 * email_verified need the `email` scope, name and picture the `profile` scope.
 */
export function googleUserinfo(state: ProviderState): Handler {
  return (request) => {
    const access = accessFor(state, bearerToken(request), rfc6750Error);
    if (!("identity" in access)) return access;
    const granted = scopes(access.scope);
    const { sub, email, emailVerified, name } = access.identity;
    const emailScope =
      granted.has("email") || granted.has("https://www.googleapis.com/auth/userinfo.email");
    const profileScope =
      granted.has("profile") || granted.has("https://www.googleapis.com/auth/userinfo.profile");
    return json(200, {
      sub,
      ...(emailScope && email !== undefined ? { email, email_verified: emailVerified } : {}),
      ...(profileScope ? { name, picture: `https://example.com/avatars/${sub}.png` } : {}),
    });
  };
}

const GRAPH_USER_FIELDS = new Set(["id", "name", "email"]);

/**
 * GET /oauth/facebook/me?fields=id,name,email: the Graph API user node. As in Graph, `id` is
 * always present, only the requested fields follow (default: id,name), and `email` needs the
 * `email` permission and an account that has an address. The token comes as a Bearer header or
 * the access_token query parameter.
 */
export function facebookMe(state: ProviderState): Handler {
  return (request) => {
    const presented = bearerToken(request) ?? request.url.searchParams.get("access_token");
    const access = accessFor(state, presented ?? undefined, graphError);
    if (!("identity" in access)) return access;
    const fields = (request.url.searchParams.get("fields") ?? "id,name")
      .split(",")
      .map((field) => field.trim())
      .filter(Boolean);
    const unknown = fields.find((field) => !GRAPH_USER_FIELDS.has(field));
    if (unknown !== undefined)
      return graphError(400, 100, `(#100) Tried accessing nonexisting field (${unknown})`);
    const { sub, email, name } = access.identity;
    const user: Record<string, string> = { id: sub };
    if (fields.includes("name")) user.name = name;
    if (fields.includes("email") && email !== undefined && scopes(access.scope).has("email"))
      user.email = email;
    return json(200, user);
  };
}

type TokenError = (status: 401, code: number, message: string, missing?: boolean) => Reply;

function accessFor(
  state: ProviderState,
  presented: string | undefined,
  error: TokenError,
): AccessToken | Reply {
  if (!presented) return error(401, 190, "an access token is required", true);
  const access = state.tokens.get(presented);
  if (!access || access.expiresAt <= state.now())
    return error(401, 190, "the access token is invalid or has expired");
  return access;
}

/** RFC 6750 §3: the Bearer challenge names the error only once a token was presented. */
function rfc6750Error(status: number, _code: number, message: string, missing = false): Reply {
  const error = missing ? "invalid_request" : "invalid_token";
  const challenge = missing ? 'Bearer realm="google"' : `Bearer realm="google", error="${error}"`;
  return json(status, { error, error_description: message }, { "www-authenticate": challenge });
}

/** The Graph API error shape; code 190 is an OAuth token error, 100 a bad parameter. */
function graphError(status: number, code: number, message: string): Reply {
  return json(status, { error: { message, type: "OAuthException", code } });
}
