import { type Handler, redirect, text } from "../http.ts";
import {
  type Identity,
  type ProviderState,
  randomSubject,
  randomToken,
  sweep,
} from "./provider.ts";

/** RFC 7636 §4.2: a S256 challenge is base64url without padding (43 characters for SHA-256). */
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * GET /oauth/<provider>/authorize. There is no browser: the user consents at once and the answer
 * is the redirect back to the client. Until client_id and redirect_uri are known to be valid, errors
 * are a 400 page and never a redirect (RFC 6749 §4.1.2.1: the server must not redirect to an
 * unverified URI). The account that signs in comes from the extra query parameters sub, email,
 * email_verified (google) and name; deny=1 is the user pressing "Cancel".
 */
export function authorize(state: ProviderState): Handler {
  return ({ url }) => {
    const params = url.searchParams;
    const clientId = params.get("client_id");
    if (!clientId || !state.clients.has(clientId))
      return text(400, `${state.name}: unknown client_id ${JSON.stringify(clientId)}`);
    const redirectUri = params.get("redirect_uri");
    const target = redirectUri ? redirectTarget(redirectUri) : undefined;
    if (!redirectUri || !target)
      return text(
        400,
        `${state.name}: redirect_uri must be an absolute http(s) URL without fragment`,
      );
    if (params.get("response_type") !== "code")
      return text(400, `${state.name}: response_type must be "code"`);
    const challenge = params.get("code_challenge");
    if (!challenge || !CHALLENGE.test(challenge))
      return text(400, `${state.name}: code_challenge is missing or malformed (PKCE is required)`);
    if (params.get("code_challenge_method") !== "S256")
      return text(400, `${state.name}: code_challenge_method must be "S256"`);
    const clientState = params.get("state");

    if (params.get("deny") === "1") {
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "The user denied the request");
      // Facebook adds its own reason next to the standard fields.
      if (state.name === "facebook") target.searchParams.set("error_reason", "user_denied");
    } else {
      const identity = identityFrom(params, state.name === "google");
      if (typeof identity === "string") return text(400, `${state.name}: ${identity}`);
      sweep(state);
      const code = randomToken();
      state.codes.set(code, {
        clientId,
        redirectUri,
        codeChallenge: challenge,
        scope: params.get("scope") ?? "",
        identity,
        issuedAt: state.now(),
        accessToken: undefined,
      });
      target.searchParams.set("code", code);
    }
    if (clientState !== null) target.searchParams.set("state", clientState);
    return redirect(target);
  };
}

function redirectTarget(redirectUri: string): URL | undefined {
  if (!URL.canParse(redirectUri)) return undefined;
  const url = new URL(redirectUri);
  const ok = (url.protocol === "http:" || url.protocol === "https:") && !redirectUri.includes("#");
  return ok ? url : undefined;
}

/** The account chosen on the consent screen, or a message saying which parameter is wrong. */
function identityFrom(params: URLSearchParams, google: boolean): Identity | string {
  const sub = params.get("sub") || randomSubject();
  const email = params.get("email");
  const verified = google ? (params.get("email_verified") ?? "true") : "true";
  if (verified !== "true" && verified !== "false")
    return 'email_verified must be "true" or "false"';
  return {
    sub,
    // Absent: an address made from sub. Present but empty: an account without an address.
    email: email === null ? `user-${sub}@example.com` : email || undefined,
    emailVerified: verified === "true",
    name: params.get("name") ?? "Test User",
  };
}
