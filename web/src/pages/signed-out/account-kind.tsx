// Which kind of account the signed-out pages are for: the choice (listener or artist), the kind a
// link names, where each lands once signed in, and the identity providers' links of each.
import type { Kind } from "../../api.ts";
import { rememberKind } from "../../session.ts";

/** Where an account lands after signing in. */
export const homeOf = (kind: Kind) => (kind === "user" ? "/" : "/studio");

export const asKind = (value: string | undefined): Kind | null =>
  value === "user" || value === "artist" ? value : null;

export function KindChoice({ value, onChange }: { value: Kind; onChange: (kind: Kind) => void }) {
  const options: [Kind, string][] = [
    ["user", "Listener"],
    ["artist", "Artist"],
  ];
  return (
    <fieldset>
      <legend>Account type</legend>
      {options.map(([kind, label]) => (
        <label key={kind} class="check">
          <input
            type="radio"
            name="kind"
            value={kind}
            checked={value === kind}
            onChange={() => onChange(kind)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** Full-page links: the API redirects to the provider and back to / (see OAuthReturn). */
export function OAuthLinks({ kind }: { kind: Kind }) {
  const providers = [
    ["google", "Google"],
    ["facebook", "Facebook"],
  ];
  return (
    <div class="row">
      {providers.map(([id, name]) => (
        <a
          key={id}
          class="button"
          href={`/api/v1/${kind}s/auth/oauth/${id}`}
          onClick={() => rememberKind(kind)}
        >
          Continue with {name}
        </a>
      ))}
    </div>
  );
}
