import { createHash } from "node:crypto";
import { type Handler, json, mediaType, type Reply, type StandInRequest } from "../http.ts";
import { ACCESS_TOKEN_TTL_S, CODE_TTL_MS, type ProviderState, randomToken } from "./provider.ts";

/** RFC 6749 §5.1: token responses must not be cached. */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

type ErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type";

/** An error response of RFC 6749 §5.2. */
function oauthError(code: ErrorCode, description: string, headers: Record<string, string> = {}) {
  const status = code === "invalid_client" ? 401 : 400;
  return json(status, { error: code, error_description: description }, { ...NO_STORE, ...headers });
}

/**
 * POST /oauth/<provider>/token: the authorization code grant with PKCE. The code is single use,
 * lives CODE_TTL_MS, and is bound to the client, the redirect_uri and the code_challenge it was
 * issued with.
 */
export function token(state: ProviderState): Handler {
  return (request) => {
    if (mediaType(request) !== "application/x-www-form-urlencoded")
      return oauthError("invalid_request", "the body must be application/x-www-form-urlencoded");
    const form = new URLSearchParams(request.body.toString("utf8"));
    const client = authenticateClient(state, request, form);
    if (typeof client !== "string") return client;

    const grantType = form.get("grant_type");
    if (!grantType) return oauthError("invalid_request", "grant_type is missing");
    if (grantType !== "authorization_code")
      return oauthError("unsupported_grant_type", `grant_type ${grantType} is not supported`);
    const code = form.get("code");
    const redirectUri = form.get("redirect_uri");
    const verifier = form.get("code_verifier");
    if (!code || !redirectUri || !verifier)
      return oauthError("invalid_request", "code, redirect_uri and code_verifier are required");

    const grant = state.codes.get(code);
    if (!grant) return oauthError("invalid_grant", "unknown authorization code");
    if (grant.accessToken !== undefined) {
      // RFC 6749 §4.1.2: a replayed code revokes what it was exchanged for.
      state.tokens.delete(grant.accessToken);
      return oauthError("invalid_grant", "the authorization code was already used");
    }
    if (state.now() - grant.issuedAt > CODE_TTL_MS)
      return oauthError("invalid_grant", "the authorization code has expired");
    if (grant.clientId !== client)
      return oauthError("invalid_grant", "the authorization code was issued to another client");
    if (grant.redirectUri !== redirectUri)
      return oauthError("invalid_grant", "redirect_uri differs from the authorization request");
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge)
      return oauthError("invalid_grant", "code_verifier does not match the code_challenge");

    const accessToken = randomToken();
    grant.accessToken = accessToken;
    state.tokens.set(accessToken, {
      clientId: client,
      scope: grant.scope,
      identity: grant.identity,
      expiresAt: state.now() + ACCESS_TOKEN_TTL_S * 1000,
    });
    return json(
      200,
      {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: ACCESS_TOKEN_TTL_S,
        scope: grant.scope,
      },
      NO_STORE,
    );
  };
}

/**
 * RFC 6749 §2.3.1: client_secret_basic or client_secret_post, not both. Answers the client_id,
 * or the error response.
 */
function authenticateClient(
  state: ProviderState,
  request: StandInRequest,
  form: URLSearchParams,
): string | Reply {
  const basic = /^Basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
  let clientId: string | null;
  let secret: string | null;
  if (basic !== undefined) {
    if (form.has("client_secret"))
      return oauthError("invalid_request", "use one client authentication method, not two");
    const credentials = decodeBasic(basic);
    if (!credentials) return oauthError("invalid_client", "malformed Basic credentials");
    [clientId, secret] = credentials;
    if (form.has("client_id") && form.get("client_id") !== clientId)
      return oauthError("invalid_request", "client_id differs from the Basic credentials");
  } else {
    clientId = form.get("client_id");
    secret = form.get("client_secret");
  }
  if (!clientId || secret === null || state.clients.get(clientId) !== secret) {
    // §5.2: a client that tried Basic gets the challenge back.
    const challenge: Record<string, string> =
      basic !== undefined ? { "www-authenticate": `Basic realm="${state.name}"` } : {};
    return oauthError("invalid_client", "client authentication failed", challenge);
  }
  return clientId;
}

/** Both halves are form-urlencoded before base64 (§2.3.1), so "+" is a space. */
function decodeBasic(encoded: string): [string, string] | undefined {
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const formDecode = (part: string) => decodeURIComponent(part.replaceAll("+", " "));
  try {
    return [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
  } catch {
    return undefined;
  }
}
