// A listener's display name: the only name others see with their public playlists.
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { account, type User } from "../../session.ts";
import { Field, Form, read } from "../../ui/form.tsx";
import { Status } from "../../ui/messages.tsx";

/** PATCH /users/me: an empty field removes the name (the API takes null for that). */
export function DisplayNameSection({ user }: { user: User }) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <section aria-labelledby="display-name-heading">
      <h2 id="display-name-heading">Display name</h2>
      <p class="muted small">
        Shown with your public playlists. Without one, they show no name: never your username or
        email address.
      </p>
      <Form
        label="Display name"
        submit="Save display name"
        onSubmit={async (data) => {
          setStatus(null);
          const shown = read(data, "display-name").trim();
          const saved = unwrap(
            await api("user").PATCH("/api/v1/users/me", {
              body: { displayName: shown || null },
            }),
          );
          const current = account.value;
          if (current?.kind === "user") account.value = { kind: "user", user: saved };
          setStatus(
            saved.displayName ? `Others now see “${saved.displayName}”.` : "Display name removed.",
          );
        }}
      >
        <Field
          label="Display name"
          name="display-name"
          maxLength={50}
          hint="Spaces allowed, at most 50 characters. Empty: no name is shown."
          defaultValue={user.displayName ?? ""}
          autoComplete="nickname"
        />
      </Form>
      <Status>{status}</Status>
    </section>
  );
}
