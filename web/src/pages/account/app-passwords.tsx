// App passwords: what a Subsonic app (Symfonium, DSub, Feishin, …) signs in with. Each is named,
// shown once when made, listed with when an app last used it, and ended at once when deleted.
import type { components } from "@edge-music/client";
import { useState } from "preact/hooks";
import { api, type Kind, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { Field, Form, read } from "../../ui/form.tsx";
import { formatWhen } from "../../ui/format.ts";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";

type AppPassword = components["schemas"]["AppPassword"];
type NewAppPassword = components["schemas"]["NewAppPassword"];

/** The account kind's own routes (a listener's and an artist's are separate accounts). */
const calls = (kind: Kind) => {
  const client = api(kind);
  return kind === "user"
    ? {
        list: (signal?: AbortSignal) =>
          client.GET("/api/v1/users/me/app-passwords", signal ? { signal } : {}).then(unwrap),
        make: async (name: string) =>
          unwrap(await client.POST("/api/v1/users/me/app-passwords", { body: { name } })),
        end: async (id: string) =>
          unwrap(
            await client.DELETE("/api/v1/users/me/app-passwords/{id}", {
              params: { path: { id } },
            }),
          ),
      }
    : {
        list: (signal?: AbortSignal) =>
          client.GET("/api/v1/artists/me/app-passwords", signal ? { signal } : {}).then(unwrap),
        make: async (name: string) =>
          unwrap(await client.POST("/api/v1/artists/me/app-passwords", { body: { name } })),
        end: async (id: string) =>
          unwrap(
            await client.DELETE("/api/v1/artists/me/app-passwords/{id}", {
              params: { path: { id } },
            }),
          ),
      };
};

export function AppPasswordsSection({ kind }: { kind: Kind }) {
  const api = calls(kind);
  const list = useResource((signal) => api.list(signal), [kind]);
  const [made, setMade] = useState<NewAppPassword | null>(null);
  const ending = useAction();
  return (
    <section aria-labelledby="app-passwords-heading">
      <h2 id="app-passwords-heading">Apps</h2>
      <p class="muted small">
        Listen in a Subsonic app (Symfonium, DSub, Tempo, Amperfy, Feishin, Supersonic…): give it
        the server <code>{location.origin}</code>, your username and an app password made here. Your
        account password never goes into an app. Changing your password or signing out everywhere
        ends every app password.
      </p>
      <Form
        label="New app password"
        submit="Make an app password"
        onSubmit={async (data) => {
          setMade(null);
          setMade(await api.make(read(data, "app-name").trim()));
          list.reload();
        }}
      >
        <Field
          label="App name"
          name="app-name"
          required
          maxLength={64}
          hint="So you know which one to end later, e.g. “Phone (Symfonium)”."
        />
      </Form>
      {made && (
        <div role="status">
          <p>
            The password for <strong>{made.name}</strong>, shown this once:{" "}
            <code class="break">{made.password}</code>
          </p>
          <p class="muted small">
            In the app: server <code>{location.origin}</code>, username <code>{made.username}</code>
            , and this password.
          </p>
        </div>
      )}
      {list.loading && !list.data && <Loading />}
      <ErrorMessage error={list.error ?? ending.error} />
      {list.data && list.data.length > 0 && (
        <ul class="plain" aria-label="App passwords">
          {list.data.map((entry: AppPassword) => (
            <li key={entry.id} class="row">
              <span>
                <strong>{entry.name}</strong>{" "}
                <span class="muted small">
                  made {formatWhen(entry.createdAt)} ·{" "}
                  {entry.lastUsedAt ? `last used ${formatWhen(entry.lastUsedAt)}` : "never used"}
                </span>
              </span>
              <button
                type="button"
                class="danger"
                aria-label={`End ${entry.name}`}
                aria-busy={ending.busy}
                onClick={() =>
                  ending.run(async () => {
                    await api.end(entry.id);
                    if (made?.id === entry.id) setMade(null);
                    list.reload();
                  })
                }
              >
                End
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
